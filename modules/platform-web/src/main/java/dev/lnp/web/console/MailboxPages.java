package dev.lnp.web.console;

import dev.lnp.api.internal.console.Ids;
import dev.lnp.api.internal.mail.Mailbox;

/**
 * The deployment's mailbox (local mail when no SMTP server is configured, and the delivery state of sent mail)
 * for its operators only: it holds every workspace's mail, so no workspace role opens it.
 */
final class MailboxPages {

    private final Console console;

    MailboxPages(Console console) {
        this.console = console;
    }

    void list(ConsoleExchange x) {
        requireOperator(x);
        x.render(200, "mailbox.jte", new Views.MailboxPage(console.chrome(x, "Mailbox", "/console/mailbox"),
                console.mailbox().list(new Mailbox.Query(null, null, 100)), console.mailer().localMailbox(), null));
    }

    void show(ConsoleExchange x) {
        requireOperator(x);
        var id = Ids.parse(x.pathParam("id"));
        var message = id == null ? null : console.mailbox().show(id).orElse(null);
        if (message == null) {
            x.render(404, "notice.jte", console.notice(x, "No such message", "The mailbox has no message with that id.",
                    "/console/mailbox", "Mailbox"));
            return;
        }
        x.render(200, "mailbox.jte", new Views.MailboxPage(console.chrome(x, "Mailbox", "/console/mailbox"),
                java.util.List.of(), console.mailer().localMailbox(), message));
    }

    private void requireOperator(ConsoleExchange x) {
        var session = x.session().orElseThrow(() -> new ConsoleExchange.Redirect("/console/sign-in"));
        if (!console.settings().isOperator(session.email())) {
            throw new ConsoleExchange.Forbidden("The mailbox is for the operators of this deployment "
                    + "(lnp.console.operators).");
        }
    }
}
