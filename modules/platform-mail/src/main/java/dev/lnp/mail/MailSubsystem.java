package dev.lnp.mail;

import dev.lnp.api.internal.mail.MailService;
import dev.lnp.api.internal.mail.Mailbox;
import dev.lnp.api.internal.mail.TransactionalMailer;
import dev.lnp.api.internal.subsystem.DoctorCheck;
import dev.lnp.api.internal.subsystem.Subsystem;
import dev.lnp.api.mail.Mailer;
import java.util.List;
import java.util.Map;

/**
 * Outgoing mail as a subsystem of the kernel: once the database is migrated it offers the {@link Mailer} (to plugins,
 * the console and webhooks) and the mailbox operators read, and starts this node's sender when an SMTP server is
 * configured; the kernel's maintenance purges old messages.
 */
public final class MailSubsystem implements Subsystem {

    private volatile NodeMail mail;

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public Map<Class<?>, Object> offer(Services services) {
        NodeMail started = NodeMail.start(services.config(), services.jdbi(), services.clock(),
                services.transactions()::onThisThread);
        mail = started;
        return Map.of(MailService.class, started, Mailer.class, started.mailer(), TransactionalMailer.class,
                started.mailer(), Mailbox.class, started.mailbox());
    }

    @Override
    public Map<Class<?>, Object> operatorServices(Operator operator) {
        return Map.of(Mailbox.class, new StoredMailbox(operator.jdbi()));
    }

    @Override
    public List<DoctorCheck> doctorChecks() {
        return List.of(new MailPathCheck());
    }

    @Override
    public Running start(Services services) {
        return new Running() {
            @Override
            public int purgeHistory() {
                NodeMail current = mail;
                return current == null ? 0 : current.purgeHistory();
            }

            @Override
            public void close() {
                // The sender stops in withdraw(), after the plugins, which may send mail until they stop.
            }
        };
    }

    @Override
    public void withdraw() {
        NodeMail current = mail;
        if (current != null) {
            current.close();
        }
    }
}
