package dev.lnp.mail;

import dev.lnp.api.internal.subsystem.DoctorCheck;
import dev.lnp.api.mail.OutgoingMail;
import java.util.UUID;

/**
 * The configured mail path, tried with a test message rendered as a real sign-in mail is (so the mail templates are
 * tried on the way too): into the local mailbox when no SMTP server is configured; otherwise a connection and
 * sign-in to the server, and with a recipient a message sent there and then.
 */
final class MailPathCheck implements DoctorCheck {

    static final String KIND = "doctor-test";

    @Override
    public void run(Context context, Report report) {
        MailDiagnosis mail;
        try {
            mail = new MailDiagnosis(context.config());
        } catch (IllegalArgumentException e) {
            report.fail("mail", e.getMessage(), "fix that lnp.mail.* setting");
            return;
        }
        OutgoingMail message;
        try {
            OutgoingMail sample = context.sampleMail().apply(context.mailTo().orElse(mail.from()));
            message = new OutgoingMail(null, sample.to(), sample.subject(), sample.text(), sample.html(), KIND);
        } catch (RuntimeException | LinkageError e) {
            report.fail("mail", "the test message cannot be rendered from the sign-in mail's templates: " + e,
                    "this build is broken; see the template lines above");
            return;
        }
        if (mail.localMailbox()) {
            if (context.database().isEmpty()) {
                report.warn("mail", "local mailbox (no lnp.mail.host) not tried: the database is not reachable");
                return;
            }
            try {
                UUID id = mail.toLocalMailbox(context.config(), context.database().get(), message);
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
            if (context.mailTo().isEmpty()) {
                report.ok("mail", mail.server() + " accepts this node's connection and sign-in; "
                        + "`platform doctor --mail-to ADDRESS` also sends a test message");
                return;
            }
            mail.send(message);
            report.ok("mail", mail.server() + " accepted a test message to " + context.mailTo().get());
        } catch (MailDiagnosis.Problem problem) {
            report.fail("mail", problem.getMessage(), problem.fix());
        } catch (IllegalArgumentException e) {
            report.fail("mail", e.getMessage(), "give --mail-to one plain address such as ada@example.com");
        }
    }
}
