package dev.lnp.webhooks;

import dev.lnp.api.outbound.OutboundGuard;
import dev.lnp.api.internal.events.Notifications;
import dev.lnp.api.internal.events.OutboxWakeSignal;
import dev.lnp.api.internal.mail.TransactionalMailer;
import dev.lnp.api.internal.platform.PlatformMeters;
import java.time.Clock;
import java.util.Locale;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * Webhook delivery on this node: the dispatcher, woken by the {@code NOTIFY} sent after events commit
 * ({@link OutboxWakeSignal}) or deliveries are queued again, through the node's one listening connection
 * ({@link Notifications}), unless the node is set to
 * serve the API only ({@code lnp.webhooks.dispatch=false}); and the purge of old history, which any node runs.
 */
public final class Webhooks implements dev.lnp.api.internal.subsystem.Subsystem.Running {

    private final DeliveryQueue queue;
    private final WebhookSettings settings;
    private final Clock clock;
    private final Dispatcher dispatcher;
    private final Notifications.Listening listener;

    private Webhooks(DeliveryQueue queue, WebhookSettings settings, Clock clock, Dispatcher dispatcher,
            Notifications.Listening listener) {
        this.queue = queue;
        this.settings = settings;
        this.clock = clock;
        this.dispatcher = dispatcher;
        this.listener = listener;
    }

    /**
     * @param mailer        e-mails the notices for workspace owners (a subscription switched off)
     * @param notifications wakes the dispatcher's fan-out when events commit, and its claims too for a redelivery;
     *                      after a lost connection it calls with no payload, which wakes both, for whatever
     *                      committed meanwhile (its own polling covers the gap)
     */
    public static Webhooks start(Jdbi jdbi, WebhookSettings settings, Clock clock, PlatformMeters metrics,
            TransactionalMailer mailer, Notifications notifications, OutboundGuard guard) {
        var queue = new DeliveryQueue(jdbi, mailer);
        new WebhookMeters(metrics).queue(queue::pendingCount);
        if (!settings.dispatch()) {
            return new Webhooks(queue, settings, clock, null, null);
        }
        var dispatcher = new Dispatcher(queue, settings, clock, guard,
                nodeName(), metrics);
        dispatcher.start();
        var listener = notifications.listen(Dispatcher.CHANNEL, payload -> {
            if (OutboxWakeSignal.EVENTS_COMMITTED.equals(payload)) {
                dispatcher.eventsCommitted();
            } else {
                dispatcher.wake();
            }
        });
        dispatcher.wake();
        return new Webhooks(queue, settings, clock, dispatcher, listener);
    }

    /** Deletes deliveries, attempts and dispatched events older than the history period (30 days). */
    @Override
    public int purgeHistory() {
        return queue.purge(clock.instant().minus(settings.history()));
    }

    /** Names this node in leases and attempt history, e.g. {@code web-1/4711/3f2a}. */
    static String nodeName() {
        String host = System.getenv().getOrDefault("HOSTNAME", "node").toLowerCase(Locale.ROOT);
        return host + "/" + ProcessHandle.current().pid() + "/" + UUID.randomUUID().toString().substring(0, 4);
    }

    @Override
    public void close() {
        if (listener != null) {
            listener.close();
        }
        if (dispatcher != null) {
            dispatcher.close();
        }
    }
}
