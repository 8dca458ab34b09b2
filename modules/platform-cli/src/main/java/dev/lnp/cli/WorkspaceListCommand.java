package dev.lnp.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.core.tenancy.WorkspaceModules.Summary;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "list", mixinStandardHelpOptions = true,
        description = "List every workspace with its owner, creation time and switched-off modules.")
final class WorkspaceListCommand implements Callable<Integer> {

    @Option(names = "--json", description = "Print a JSON array.")
    boolean json;

    @Override
    public Integer call() {
        try (var context = new OperatorContext()) {
            List<Summary> workspaces = context.workspaceModules().list();
            if (json) {
                ArrayNode array = Json.mapper().createArrayNode();
                for (Summary w : workspaces) {
                    ObjectNode node = array.addObject().put("id", w.id().toString()).put("name", w.name())
                            .put("owner_email", w.ownerEmail()).put("created_at", w.createdAt().toString());
                    w.disabledModules().forEach(node.putArray("disabled_modules")::add);
                }
                System.out.println(array);
            } else if (workspaces.isEmpty()) {
                System.out.println("No workspaces.");
            } else {
                for (Summary w : workspaces) {
                    System.out.println(w.id() + "  " + w.name() + "  " + w.ownerEmail() + "  created "
                            + w.createdAt() + (w.disabledModules().isEmpty() ? ""
                            : "  modules off: " + String.join(",", w.disabledModules())));
                }
            }
            return 0;
        }
    }
}
