package dev.lnp.mail;

import dev.lnp.api.internal.platform.ConfigValues;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.internal.mail.MailService;
import dev.lnp.api.internal.mail.Mailbox;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.jdbi.v3.core.Jdbi;

/**
 * Outgoing mail on this node: the {@link PlatformMailer} that queues, the {@link Mailbox} operators read, and
 * the background sender when an SMTP server is configured and this node sends ({@code lnp.mail.dispatch}).
 */
public final class NodeMail implements MailService, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(NodeMail.class.getName());
    /** Finished messages and the local mailbox are kept this long. */
    public static final Duration HISTORY = Duration.ofDays(30);

    private final PlatformMailer mailer;
    private final Mailbox mailbox;
    private final MailQueue queue;
    private final MailSender sender;
    private final Clock clock;

    private NodeMail(PlatformMailer mailer, Mailbox mailbox, MailQueue queue, MailSender sender, Clock clock) {
        this.mailer = mailer;
        this.mailbox = mailbox;
        this.queue = queue;
        this.sender = sender;
        this.clock = clock;
    }

    /** @throws IllegalArgumentException when an {@code lnp.mail.*} setting is invalid (the message names it) */
    public static NodeMail start(ConfigValues config, Jdbi jdbi, Clock clock,
            Supplier<Optional<WorkspaceTx>> currentTransaction) {
        MailSettings settings = MailSettings.from(config);
        var queue = new MailQueue(jdbi);
        MailSender sender = null;
        if (!settings.localMailbox() && settings.dispatch()) {
            sender = new MailSender(queue, settings, clock, nodeName());
            sender.start();
        }
        MailSender wake = sender;
        var mailer = new PlatformMailer(settings, queue, clock, wake == null ? () -> { } : wake::wake,
                currentTransaction);
        if (settings.localMailbox()) {
            LOG.log(Level.INFO, "No SMTP server configured (lnp.mail.host): mail goes to the local mailbox "
                    + "(platform mail list) and is printed here");
        } else {
            LOG.log(Level.INFO, "Mail goes to {0}:{1} ({2}) from {3}", settings.host().orElseThrow(),
                    String.valueOf(settings.port()), settings.security().name().toLowerCase(Locale.ROOT), settings.from());
        }
        return new NodeMail(mailer, new StoredMailbox(jdbi), queue, sender, clock);
    }

    @Override
    public PlatformMailer mailer() {
        return mailer;
    }

    @Override
    public Mailbox mailbox() {
        return mailbox;
    }

    /** Deletes finished messages (and local mail) older than {@link #HISTORY}. */
    public int purgeHistory() {
        return queue.purge(clock.instant().minus(HISTORY));
    }

    private static String nodeName() {
        String host = System.getenv().getOrDefault("HOSTNAME", "node").toLowerCase(Locale.ROOT);
        return host + "/" + ProcessHandle.current().pid() + "/" + UUID.randomUUID().toString().substring(0, 4);
    }

    @Override
    public void close() {
        if (sender != null) {
            sender.close();
        }
    }
}
