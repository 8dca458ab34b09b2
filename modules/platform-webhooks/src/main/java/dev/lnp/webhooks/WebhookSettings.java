package dev.lnp.webhooks;

import dev.lnp.api.internal.platform.ConfigValues;
import java.time.Duration;
import java.util.List;

/**
 * The deployment's webhook settings, read once at start-up ({@code lnp.webhooks.*}; each can be set by
 * environment, e.g. {@code LNP_WEBHOOKS_ALLOWED__NETWORKS=10.0.0.0/8,127.0.0.1/32}).
 *
 * @param allowedNetworks receivers in these networks are allowed even though private or loopback, besides those of
 *                        {@code lnp.outbound.allowed_networks} that every feature may reach
 * @param requestTimeout  the whole of one attempt: connect, send, response headers and the capped body
 * @param lease           how long a claimed delivery stays claimed; longer than {@code requestTimeout}, so a live
 *                        node never loses a delivery it is still sending, and a dead node's claims return after it
 * @param maxInFlight     attempts in flight on this node, all receivers together
 * @param perReceiver     attempts in flight on this node to one receiver (scheme, host and port)
 * @param breakerFailures consecutive failures of a receiver that open its circuit
 * @param breakerDelay    how long an open circuit waits before one probe is let through
 * @param pollInterval    the longest the dispatcher sleeps without being woken by a commit
 * @param batchSize       outbox rows fanned out, deliveries claimed, or finished attempts recorded, per statement
 * @param secretOverlap   how long the previous secret keeps signing after a rotation
 * @param responseCap     how much of a receiver's response body is read and kept
 * @param history         how long deliveries and attempts are kept
 * @param disableAfter    a subscription whose attempts all failed this long is switched off
 * @param dispatch        whether this node delivers (a node may serve the API only)
 */
public record WebhookSettings(
        List<String> allowedNetworks,
        Duration requestTimeout,
        Duration lease,
        int maxInFlight,
        int perReceiver,
        int breakerFailures,
        Duration breakerDelay,
        Duration pollInterval,
        int batchSize,
        Duration secretOverlap,
        int responseCap,
        Duration history,
        Duration disableAfter,
        boolean dispatch) {

    public WebhookSettings {
        allowedNetworks = List.copyOf(allowedNetworks);
        if (lease.compareTo(requestTimeout.plusSeconds(1)) < 0) {
            throw new IllegalArgumentException("lnp.webhooks.lease_seconds (" + lease.toSeconds()
                    + ") must exceed lnp.webhooks.request_timeout_ms (" + requestTimeout.toMillis()
                    + " ms) by at least a second, or a slow attempt could be claimed twice");
        }
        if (maxInFlight < 1 || perReceiver < 1 || batchSize < 1 || breakerFailures < 1) {
            throw new IllegalArgumentException("lnp.webhooks: concurrency, batch and breaker settings must be 1 or more");
        }
    }

    public static WebhookSettings from(ConfigValues config) {
        return new WebhookSettings(
                config.list("lnp.webhooks.allowed_networks"),
                Duration.ofMillis(config.getLong("lnp.webhooks.request_timeout_ms", 10_000)),
                Duration.ofSeconds(config.getLong("lnp.webhooks.lease_seconds", 60)),
                config.getInt("lnp.webhooks.max_in_flight", 64),
                config.getInt("lnp.webhooks.per_receiver", 16),
                config.getInt("lnp.webhooks.breaker_failures", 5),
                Duration.ofSeconds(config.getLong("lnp.webhooks.breaker_delay_seconds", 30)),
                Duration.ofMillis(config.getLong("lnp.webhooks.poll_interval_ms", 1_000)),
                config.getInt("lnp.webhooks.batch_size", 200),
                Duration.ofHours(config.getLong("lnp.webhooks.secret_overlap_hours", 24)),
                64 * 1024,
                Duration.ofDays(30),
                Duration.ofDays(5),
                !"false".equals(config.get("lnp.webhooks.dispatch").orElse("true")));
    }
}
