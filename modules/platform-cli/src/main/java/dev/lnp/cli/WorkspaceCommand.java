package dev.lnp.cli;

import dev.lnp.api.Json;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "workspace", mixinStandardHelpOptions = true, description = "Manage workspaces.",
        subcommands = {WorkspaceCommand.Create.class, WorkspaceListCommand.class, WorkspaceModulesCommand.class})
final class WorkspaceCommand {

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a workspace and its owner.")
    static final class Create implements Callable<Integer> {
        @Option(names = "--name", required = true, description = "Workspace name (1-200 characters).")
        String name;

        @Option(names = "--owner-email", required = true, description = "The owner's email address.")
        String ownerEmail;

        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Override
        public Integer call() {
            try (var context = new OperatorContext()) {
                var workspace = context.workspaces().create(name, ownerEmail);
                var ownerId = context.ownerId(workspace.id());
                // A one-time link (like an invitation) so the owner can sign in to the console straight away; none
                // when this installation has no console.
                String link = context.consoleSignIn().map(signIn -> signIn.link(workspace.id(), workspace.ownerEmail()))
                        .orElse(null);
                if (json) {
                    System.out.println(Json.object().put("id", workspace.id().toString()).put("name", workspace.name())
                            .put("owner_user_id", ownerId.toString()).put("sign_in_link", link));
                } else {
                    System.out.println("Created workspace " + workspace.id() + " (" + workspace.name() + ")");
                    System.out.println("Owner " + workspace.ownerEmail() + ", user id " + ownerId);
                    if (link != null) {
                        System.out.println("Sign in to the console (one-time link): " + link);
                    }
                }
                return 0;
            }
        }
    }
}
