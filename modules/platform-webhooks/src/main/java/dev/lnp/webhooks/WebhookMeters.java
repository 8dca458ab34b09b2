package dev.lnp.webhooks;

import dev.lnp.api.internal.platform.PlatformMeters;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The webhooks' meters on the platform's {@code /metrics}: attempts by outcome, settled deliveries by final state,
 * the lag of delivered events and the queue's depth (docs/webhooks.md, "Monitoring"; the Grafana dashboard reads
 * these names).
 */
public final class WebhookMeters {

    public static final String ATTEMPTS = "lnp.webhook.attempts";
    public static final String DELIVERIES = "lnp.webhook.deliveries";
    public static final String LAG = "lnp.webhook.delivery.lag";
    public static final String QUEUE = "lnp.webhook.queue.depth";

    /** The upper bounds of the delivery lag histogram: seconds for a healthy receiver up to an hour's retries. */
    public static final List<Duration> LAG_BUCKETS = List.of(Duration.ofMillis(100), Duration.ofMillis(500),
            Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(15), Duration.ofMinutes(1),
            Duration.ofMinutes(5), Duration.ofMinutes(15), Duration.ofHours(1));

    private final PlatformMeters meters;

    public WebhookMeters(PlatformMeters meters) {
        this.meters = meters;
    }

    /** One attempt and, when it settled its delivery, the delivery and (delivered) its lag since the event. */
    public void attempt(String attemptOutcome, String deliveryState, Duration sinceEvent) {
        meters.count(ATTEMPTS, "Webhook delivery attempts by outcome", Map.of("outcome", attemptOutcome));
        if (!"pending".equals(deliveryState)) {
            meters.count(DELIVERIES, "Webhook deliveries settled, by final state", Map.of("outcome", deliveryState));
        }
        if ("delivered".equals(deliveryState)) {
            meters.time(LAG, "Time from the event to its successful delivery", LAG_BUCKETS, sinceEvent);
        }
    }

    /** Deliveries waiting (state pending), read from the database when scraped. */
    public void queue(Supplier<Number> pending) {
        meters.gauge(QUEUE, "Webhook deliveries waiting to be attempted", pending);
    }
}
