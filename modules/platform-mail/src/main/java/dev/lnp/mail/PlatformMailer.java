package dev.lnp.mail;

import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.mail.Mailer;
import dev.lnp.api.mail.OutgoingMail;
import dev.lnp.api.internal.mail.TransactionalMailer;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;

/**
 * The {@link Mailer} of the core and every plugin: checks a message, writes it to the outbox and returns. Inside
 * a workspace transaction (a request's, or {@code PluginContext.inWorkspace}) it writes through that transaction,
 * so the mail exists only if the caller's change commits; otherwise in a transaction of its own. Core code with a
 * Jdbi handle of its own passes it to {@link #send(Handle, OutgoingMail)}.
 */
public final class PlatformMailer implements TransactionalMailer {

    private static final System.Logger LOG = System.getLogger(PlatformMailer.class.getName());

    private final MailSettings settings;
    private final MailQueue queue;
    private final Clock clock;
    private final Runnable wakeSender;
    private final LocalMailPrinter printer;
    private final Supplier<Optional<WorkspaceTx>> currentTransaction;

    PlatformMailer(MailSettings settings, MailQueue queue, Clock clock, Runnable wakeSender,
            Supplier<Optional<WorkspaceTx>> currentTransaction) {
        this(settings, queue, clock, wakeSender, settings.printLocal(), currentTransaction);
    }

    private PlatformMailer(MailSettings settings, MailQueue queue, Clock clock, Runnable wakeSender,
            boolean printLocal, Supplier<Optional<WorkspaceTx>> currentTransaction) {
        this.currentTransaction = currentTransaction;
        this.settings = settings;
        this.queue = queue;
        this.clock = clock;
        this.wakeSender = wakeSender;
        this.printer = printLocal ? new LocalMailPrinter() : null;
    }

    /**
     * A mailer that only queues, for an operator command: the running server's sender delivers what it queues
     * (within {@code lnp.mail.poll_interval_ms}). Local mail is not printed: the command's standard output is
     * its own (often {@code --json}); it prints what the operator needs itself.
     */
    public static PlatformMailer queueOnly(dev.lnp.api.internal.platform.ConfigValues config, org.jdbi.v3.core.Jdbi jdbi) {
        return new PlatformMailer(MailSettings.from(config), new MailQueue(jdbi), Clock.systemUTC(), () -> { }, false,
                Optional::empty);
    }

    @Override
    public UUID send(OutgoingMail mail) {
        MailCheck.check(mail);
        Optional<WorkspaceTx> current = currentTransaction.get();
        if (current.isPresent() && mail.workspaceId() != null) {
            if (!current.get().workspaceId().equals(mail.workspaceId())) {
                throw new IllegalArgumentException("workspaceId " + mail.workspaceId() + " is not the workspace of "
                        + "the current transaction (" + current.get().workspaceId() + ")");
            }
            return send(current.get().handle(), mail);
        }
        // Deployment mail is no workspace's data, and a workspace transaction may not write it (row-level
        // security): it gets a transaction on a handle of its own (Jdbi's inTransaction would join the one open
        // on this thread).
        try (Handle handle = queue.jdbi().open()) {
            return handle.inTransaction(h -> send(h, mail));
        } catch (org.jdbi.v3.core.statement.StatementException e) {
            if (e.getCause() instanceof java.sql.SQLException sql && "23503".equals(sql.getSQLState())) {
                throw new IllegalArgumentException("workspaceId " + mail.workspaceId() + " is not a workspace", e);
            }
            throw e;
        }
    }

    /** Writes the message through {@code handle}: it is sent (or shown in the local mailbox) once that commits. */
    public UUID send(Handle handle, OutgoingMail mail) {
        MailCheck.check(mail);
        UUID id = UUID.randomUUID();
        Instant now = clock.instant();
        boolean local = settings.localMailbox();
        MailQueue.insert(handle, id, mail, settings.from().toString(), messageId(id), local ? "local" : "pending", now);
        if (local) {
            afterCommit(handle, () -> {
                LOG.log(Level.INFO, "Mail {0} ({1}) to {2} kept in the local mailbox", id, mail.kind(), mail.to());
                if (printer != null) {
                    printer.print(id, mail);
                }
            });
        } else {
            afterCommit(handle, () -> {
                LOG.log(Level.DEBUG, "Mail {0} ({1}) to {2} queued", id, mail.kind(), mail.to());
                wakeSender.run();
            });
        }
        return id;
    }

    /** A handle in auto-commit mode has already committed the row. */
    private static void afterCommit(Handle handle, Runnable action) {
        if (handle.isInTransaction()) {
            handle.afterCommit(action);
        } else {
            action.run();
        }
    }

    @Override
    public boolean localMailbox() {
        return settings.localMailbox();
    }

    /** Unique per message and stable across attempts, so a receiver can drop a duplicate of a retried send. */
    private String messageId(UUID id) {
        String address = settings.from().getAddress();
        return "<" + id + ".lnp@" + address.substring(address.lastIndexOf('@') + 1) + ">";
    }
}
