package dev.lnp.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.core.tenancy.WorkspaceModules.ModuleState;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "modules", mixinStandardHelpOptions = true,
        description = {"Show, or switch on and off, the deployment's modules (plugins) for one workspace.",
                "A module switched off answers 404 on its routes and hides its MCP tools for that workspace, "
                        + "from the next request on, on every node; its data is kept."})
final class WorkspaceModulesCommand implements Callable<Integer> {

    @Option(names = "--workspace", required = true, description = "Workspace id.")
    UUID workspace;

    @Option(names = "--enable", split = ",", description = "Module ids to switch on, e.g. crm,projects.")
    List<String> enable = List.of();

    @Option(names = "--disable", split = ",", description = "Module ids to switch off.")
    List<String> disable = List.of();

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() {
        try (var context = new OperatorContext()) {
            List<ModuleState> states = context.workspaceModules().change(workspace, enable, disable);
            if (json) {
                ObjectNode out = Json.object().put("workspace_id", workspace.toString());
                ArrayNode modules = out.putArray("modules");
                states.forEach(m -> modules.addObject().put("id", m.id()).put("enabled", m.enabled())
                        .put("installed", m.installed()));
                System.out.println(out);
            } else {
                states.forEach(m -> System.out.println(m.id() + "  " + (m.enabled() ? "on" : "off")
                        + (m.installed() ? "" : "  (not installed in this deployment)")));
            }
            return 0;
        }
    }
}
