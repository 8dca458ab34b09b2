package dev.lnp.testkit.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import dev.lnp.testkit.WebhookReceiver;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/** Small helpers the webhook tests share: subscribe, publish, read delivery state. */
final class Hooks {

    static final String SUBSCRIPTIONS = "/api/v1/webhooks/subscriptions";

    record Subscription(UUID id, String secret) {
    }

    private Hooks() {
    }

    static Subscription subscribe(TestPlatform platform, String key, String url, String... events) {
        String body = Json.mapper().createObjectNode().put("url", url)
                .set("events", Json.mapper().valueToTree(List.of(events))).toString();
        TestResponse created = platform.post(SUBSCRIPTIONS, key, body);
        assertEquals(201, created.status(), created.body());
        return new Subscription(UUID.fromString(created.data().path("id").asText()),
                created.data().path("secret").asText());
    }

    /** Publishes {@code count} events in one committed transaction, through the probe plugin's route. */
    static void publish(TestPlatform platform, String key, int count, String event) {
        TestResponse published = platform.post("/api/v1/probe/events", key,
                "{\"count\": " + count + ", \"event\": \"" + event + "\"}");
        assertEquals(201, published.status(), published.body());
    }

    /** Deletes a subscription, even one whose deliveries are being attempted and recorded right now. */
    static void unsubscribe(TestPlatform platform, String key, UUID subscription) {
        TestResponse deleted = platform.delete(SUBSCRIPTIONS + "/" + subscription, key);
        assertEquals(204, deleted.status(), deleted.body());
    }

    static JsonNode delivery(TestPlatform platform, String key, UUID subscription, String deliveryId) {
        TestResponse one = platform.get(SUBSCRIPTIONS + "/" + subscription + "/deliveries/" + deliveryId, key);
        assertEquals(200, one.status(), one.body());
        return one.data();
    }

    /** Delivery states of a subscription straight from the database: id → state. */
    static Map<UUID, String> states(Jdbi jdbi, UUID subscription) {
        return jdbi.withHandle(h -> h.createQuery(
                        "SELECT id, state FROM lnp_core.webhook_deliveries WHERE subscription_id = :s")
                .bind("s", subscription)
                .map((rs, ctx) -> Map.entry(rs.getObject("id", UUID.class), rs.getString("state")))
                .list()).stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    /** How many of a subscription's deliveries are delivered (their attempt recorded). */
    static long delivered(Jdbi jdbi, UUID subscription) {
        return states(jdbi, subscription).values().stream().filter("delivered"::equals).count();
    }

    /**
     * A transaction holding the lock every recording of an attempt waits for (it inserts into webhook_attempts),
     * and nothing else does; roll it back to let the recordings through.
     */
    static Handle recordingBlocked(Jdbi jdbi) {
        Handle lock = jdbi.open();
        lock.begin();
        lock.execute("LOCK TABLE lnp_core.webhook_attempts IN EXCLUSIVE MODE");
        return lock;
    }

    static long count(Jdbi jdbi, String sql, Object... binds) {
        return jdbi.withHandle(h -> {
            var q = h.createQuery(sql);
            for (int i = 0; i < binds.length; i++) {
                q.bind(i, binds[i]);
            }
            return q.mapTo(Long.class).one();
        });
    }

    static long attempts(Jdbi jdbi, UUID subscription) {
        return count(jdbi, """
                SELECT count(*) FROM lnp_core.webhook_attempts a
                  JOIN lnp_core.webhook_deliveries d ON d.id = a.delivery_id WHERE d.subscription_id = ?
                """, subscription);
    }

    /**
     * Waits until the webhook work of {@code workspaces} is done: every committed event fanned out into deliveries
     * and no delivery still pending. After that a receiver has everything it will ever get from them (it records a
     * request before answering, and a delivery leaves 'pending' only once the answer is recorded), so an absence
     * ("nothing else arrived") is asserted at once instead of after a sleep that only hoped to be long enough.
     */
    static void drain(Jdbi jdbi, UUID... workspaces) {
        for (UUID workspace : workspaces) {
            dev.lnp.testkit.WebhookReceiver.await(seconds(20), "the webhook work of workspace " + workspace + " done",
                    () -> count(jdbi, """
                            SELECT (SELECT count(*) FROM lnp_core.outbox WHERE workspace_id = ? AND dispatched_at IS NULL)
                                 + (SELECT count(*) FROM lnp_core.webhook_deliveries
                                     WHERE workspace_id = ? AND state = 'pending')
                            """, workspace, workspace) == 0);
        }
    }

    /**
     * Waits up to 10 s for the receiver to hold {@code n} requests. A timeout says where the subscription's
     * deliveries stood, so a slow or lost delivery in CI can be told apart from one that was never fanned out.
     */
    static void awaitReceived(TestPlatform platform, WebhookReceiver receiver, int n, UUID subscription, String what) {
        try {
            WebhookReceiver.await(seconds(10), what, () -> receiver.received().size() == n);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; received " + receiver.received().size() + " of " + n + "; "
                    + whereDeliveriesStand(platform.jdbi(), subscription), e);
        }
    }

    static String whereDeliveriesStand(Jdbi jdbi, UUID subscription) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT format('at %s: %s outbox rows not fanned out; secrets valid now: %s; deliveries: %s',
                               clock_timestamp(),
                               (SELECT count(*) FROM lnp_core.outbox WHERE dispatched_at IS NULL),
                               (SELECT count(*) FROM lnp_core.webhook_secrets
                                 WHERE subscription_id = :s AND (expires_at IS NULL OR expires_at > now())),
                               coalesce((SELECT string_agg(format('[%s, %s attempts, next %s, lease %s until %s, %s]',
                                                state, attempts, next_attempt_at, lease_owner, lease_until, last_error),
                                                ' ' ORDER BY created_at)
                                           FROM lnp_core.webhook_deliveries WHERE subscription_id = :s), 'none'))
                        """).bind("s", subscription).mapTo(String.class).one());
    }

    static Duration seconds(long s) {
        return Duration.ofSeconds(s);
    }
}
