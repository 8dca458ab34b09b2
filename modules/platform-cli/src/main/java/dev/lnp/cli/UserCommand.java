package dev.lnp.cli;

import dev.lnp.api.Json;
import dev.lnp.api.internal.console.SignInInvitations;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "user", mixinStandardHelpOptions = true, description = "Console users: a new sign-in link for someone locked out.",
        subcommands = {UserCommand.SignInLink.class})
final class UserCommand {

    /**
     * A way back in for someone whose link and session have expired (an owner who never used the link that
     * {@code workspace create} printed, an invitation that never arrived): a one-time link like an invitation,
     * not bound to a browser, handed over by the operator.
     */
    @Command(name = "sign-in-link", mixinStandardHelpOptions = true,
            description = "Print a new one-time console sign-in link for an existing user.")
    static final class SignInLink implements Callable<Integer> {
        @Option(names = "--email", required = true, description = "The user's e-mail address.")
        String email;

        @Option(names = "--workspace", paramLabel = "ID", description = "Sign in to this workspace (needed to skip "
                + "the choice when the address belongs to users of several workspaces).")
        UUID workspace;

        @Option(names = "--json", description = "Print JSON: email, workspace_id, sign_in_link, valid_for.")
        boolean json;

        @Override
        public Integer call() {
            try (var context = new OperatorContext()) {
                var signIn = context.signIn();
                List<SignInInvitations.Membership> memberships = signIn.memberships(email.strip());
                if (memberships.isEmpty()) {
                    throw new IllegalArgumentException("no user has the e-mail address " + email.strip()
                            + " (platform workspace list shows the workspaces; members are invited in the console)");
                }
                if (workspace != null && memberships.stream().noneMatch(m -> m.workspaceId().equals(workspace))) {
                    throw new IllegalArgumentException(email.strip() + " is not a user of workspace " + workspace);
                }
                // With one workspace the link leads straight into it; with several, to the workspace choice.
                UUID into = workspace != null ? workspace
                        : memberships.size() == 1 ? memberships.get(0).workspaceId() : null;
                // The address as the user has it, not as typed: the session shows and compares it.
                String address = memberships.stream().filter(m -> into == null || m.workspaceId().equals(into))
                        .findFirst().orElseThrow().email();
                String link = signIn.link(into, address);
                String validFor = signIn.lifetime().toString();
                if (json) {
                    System.out.println(Json.object().put("email", address)
                            .put("workspace_id", into == null ? null : into.toString())
                            .put("sign_in_link", link).put("valid_for", validFor));
                } else {
                    System.out.println("One-time console sign-in link for " + address + " (works once, for "
                            + signIn.lifetime().toDays() + " days, in any browser):");
                    System.out.println(link);
                }
                return 0;
            }
        }
    }
}
