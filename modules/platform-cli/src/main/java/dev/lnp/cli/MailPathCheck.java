package dev.lnp.cli;

import dev.lnp.api.mail.OutgoingMail;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.console.ConsoleTemplates;
import dev.lnp.core.console.Views;
import dev.lnp.core.mail.MailDiagnosis;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * The configured mail path, tried with a test message rendered from the sign-in mail's templates: into the local
 * mailbox when no SMTP server is configured; otherwise a connection and sign-in to the server, and with a
 * recipient a message sent there and then.
 */
final class MailPathCheck {

    static final String KIND = "doctor-test";

    private final PlatformConfig config;
    private final Optional<String> recipient;

    MailPathCheck(PlatformConfig config, Optional<String> recipient) {
        this.config = config;
        this.recipient = recipient;
    }

    /** @param jdbi the database, for the local mailbox; empty when it is not reachable */
    void run(DoctorReport report, Optional<Jdbi> jdbi) {
        MailDiagnosis mail;
        try {
            mail = new MailDiagnosis(config);
        } catch (IllegalArgumentException e) {
            report.fail("mail", e.getMessage(), "fix that lnp.mail.* setting");
            return;
        }
        OutgoingMail message;
        try {
            message = message(mail);
        } catch (RuntimeException | LinkageError e) {
            report.fail("mail", "the test message cannot be rendered from the sign-in mail's templates: " + e,
                    "this build is broken; see the template lines above");
            return;
        }
        if (mail.localMailbox()) {
            if (jdbi.isEmpty()) {
                report.warn("mail", "local mailbox (no lnp.mail.host) not tried: the database is not reachable");
                return;
            }
            try {
                UUID id = mail.toLocalMailbox(config, jdbi.get(), message);
                report.ok("mail", "no SMTP server configured (lnp.mail.host): a test message is in the local mailbox, "
                        + "see `platform mail show " + id + "`");
            } catch (RuntimeException e) {
                report.fail("mail", "the test message could not be written to the local mailbox: " + e.getMessage(),
                        "see the message; the mail outbox is in the database (lnp_core.mail_messages)");
            }
            return;
        }
        try {
            mail.connect();
            if (recipient.isEmpty()) {
                report.ok("mail", mail.server() + " accepts this node's connection and sign-in; "
                        + "`platform doctor --mail-to ADDRESS` also sends a test message");
                return;
            }
            mail.send(message);
            report.ok("mail", mail.server() + " accepted a test message to " + recipient.get());
        } catch (MailDiagnosis.Problem problem) {
            report.fail("mail", problem.getMessage(), problem.fix());
        } catch (IllegalArgumentException e) {
            report.fail("mail", e.getMessage(), "give --mail-to one plain address such as ada@example.com");
        }
    }

    /** Rendered as a real sign-in mail is, so the mail templates are tried on the way too. */
    private OutgoingMail message(MailDiagnosis mail) {
        var templates = new ConsoleTemplates();
        var model = new Views.LinkMail(config.baseUrl().resolve("/console/sign-in").toString(), "no time",
                "This is a test message from `platform doctor`: the platform's mail reaches you. Nothing needs to "
                        + "be done.", "Open the console");
        return new OutgoingMail(null, recipient.orElse(mail.from()), "Test message from the workspace platform",
                templates.renderText("signin.jte", model), templates.render("mail/link.jte", model), KIND);
    }
}
