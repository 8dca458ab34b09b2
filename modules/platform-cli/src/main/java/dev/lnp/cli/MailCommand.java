package dev.lnp.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.internal.mail.Mailbox;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "mail", mixinStandardHelpOptions = true,
        description = "Read the deployment's outgoing mail: the local mailbox (no SMTP server configured) and the "
                + "state of mail sent over SMTP.",
        subcommands = {MailCommand.ListMail.class, MailCommand.Show.class})
final class MailCommand {

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List mail, newest first.")
    static final class ListMail implements Callable<Integer> {
        @Option(names = "--to", description = "Only mail to this address (case-insensitive).") String to;
        @Option(names = "--workspace", description = "Only mail of this workspace.") UUID workspace;
        @Option(names = "--limit", defaultValue = "50", description = "At most this many (1 to 500, default 50).")
        int limit;
        @Option(names = "--json", description = "Print a JSON array: id, workspace_id, kind, to, subject, state, attempts, created_at, "
                + "completed_at, last_error.")
        boolean json;

        @Override
        public Integer call() {
            var query = new Mailbox.Query(to, workspace, limit);
            try (var context = new OperatorContext()) {
                var mails = context.mailbox().list(query);
                if (json) {
                    var array = Json.mapper().createArrayNode();
                    mails.forEach(m -> array.add(summary(m)));
                    System.out.println(array);
                } else if (mails.isEmpty()) {
                    System.out.println("No mail" + (to != null ? " to " + to : "") + ".");
                } else {
                    System.out.printf("%-36s  %-27s  %-7s %-16s %-28s %s%n", "ID", "CREATED", "STATE", "KIND", "TO",
                            "SUBJECT");
                    for (var m : mails) {
                        System.out.printf("%s  %s  %-7s %-16s %-28s %s%n", m.id(), m.createdAt(), m.state(),
                                m.kind(), m.to(), m.subject());
                    }
                }
                return 0;
            }
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show one mail with its text.")
    static final class Show implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "ID", description = "The mail's id (from mail list).") UUID id;
        @Option(names = "--json", description = "Print the mail as JSON, with its text and HTML parts.") boolean json;
        @Option(names = "--html", description = "Print the HTML part instead of the text.") boolean html;

        @Override
        public Integer call() {
            try (var context = new OperatorContext()) {
                var mail = context.mailbox().show(id).orElseThrow(
                        () -> new IllegalArgumentException("no mail with id " + id + " (see platform mail list)"));
                var s = mail.summary();
                if (json) {
                    System.out.println(summary(s).put("from", mail.from()).put("message_id", mail.messageId())
                            .put("text", mail.text()).put("html", mail.html()));
                    return 0;
                }
                var out = new StringBuilder()
                        .append("Id:         ").append(s.id()).append('\n')
                        .append("State:      ").append(s.state()).append(s.attempts() > 0
                                ? " (" + s.attempts() + " attempt" + (s.attempts() == 1 ? "" : "s") + ")" : "")
                        .append('\n')
                        .append("Kind:       ").append(s.kind()).append('\n')
                        .append("Workspace:  ").append(s.workspaceId() == null ? "(deployment)" : s.workspaceId())
                        .append('\n')
                        .append("Created:    ").append(s.createdAt()).append('\n')
                        .append("From:       ").append(mail.from()).append('\n')
                        .append("To:         ").append(s.to()).append('\n')
                        .append("Subject:    ").append(s.subject()).append('\n')
                        .append("Message-ID: ").append(mail.messageId()).append('\n');
                if (s.lastError() != null) {
                    out.append("Last error: ").append(s.lastError()).append('\n');
                }
                out.append('\n');
                String body = html ? mail.html() : mail.text();
                if (body != null) {
                    out.append(body.strip()).append('\n');
                } else if (html && mail.text() != null) {
                    out.append("(this mail has no HTML part)\n");
                } else {
                    out.append("(the body is not kept once the SMTP server has accepted the mail)\n");
                }
                System.out.print(out);
                return 0;
            }
        }
    }

    private static ObjectNode summary(Mailbox.Summary m) {
        return Json.object().put("id", m.id().toString())
                .put("workspace_id", m.workspaceId() == null ? null : m.workspaceId().toString())
                .put("kind", m.kind()).put("to", m.to()).put("subject", m.subject()).put("state", m.state())
                .put("attempts", m.attempts()).put("created_at", m.createdAt().toString())
                .put("completed_at", m.completedAt() == null ? null : m.completedAt().toString())
                .put("last_error", m.lastError());
    }
}
