package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.webhooks.Hooks.publish;
import static dev.lnp.testkit.webhooks.Hooks.subscribe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.webhooks.ClaimedDelivery;
import dev.lnp.webhooks.DeliveryQueue;
import dev.lnp.webhooks.Outcome;
import dev.lnp.webhooks.RetrySchedule;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fan-out leases the new deliveries this node has room for in the statement that writes them, so they are sent
 * without a claim. What it leases
 * must be what a claim would have taken: within each receiver's room and the node's, oldest first, with everything
 * an attempt needs; what it does not lease waits for a claim. The platform under test does not dispatch: the test
 * fans out and claims by hand.
 */
@PlatformTest(plugins = "probe", config = {"lnp.webhooks.allowed_networks=127.0.0.0/8", "lnp.webhooks.dispatch=false"})
class WebhookFanOutLeaseTest {

    private static final String NODE = "fan-out-lease-node";

    @AfterEach
    void forgetSubscriptions(TestPlatform platform) {
        platform.jdbi().useHandle(h -> h.execute("DELETE FROM lnp_core.webhook_subscriptions"));
    }

    @Test
    void leasesWithinEachReceiversRoomAndLeavesTheRestForAClaim(TestPlatform platform) {
        UUID ws = platform.createWorkspace("fan-out lease");
        String key = platform.fullAccessKey(ws);
        var queue = new DeliveryQueue(platform.jdbi());
        UUID fresh = subscribe(platform, key, "http://127.0.0.1:9/fresh", "probe.burst").id();
        UUID busy = subscribe(platform, key, "http://127.0.0.1:9/busy", "probe.burst").id();
        UUID closed = subscribe(platform, key, "http://127.0.0.1:9/closed", "probe.burst").id();
        publish(platform, key, 5, "probe.burst");

        Instant now = Instant.now();
        Instant until = now.plus(Duration.ofMinutes(5));
        // fresh: unknown to the node, so the default of three; busy: room for one; closed: its circuit is open.
        var fanOut = queue.fanOut(now, 100, -1, new DeliveryQueue.Lease(NODE, until, 100, 3,
                Map.of(busy, 1, closed, 0)));

        assertEquals(5, fanOut.rows(), "every event taken");
        assertEquals(15, fanOut.deliveries(), "a delivery per event and subscription");
        assertEquals(3, leasedFor(fanOut, fresh).size(), "the default room");
        assertEquals(1, leasedFor(fanOut, busy).size(), "the room left at a busy receiver");
        assertEquals(0, leasedFor(fanOut, closed).size(), "none for an open circuit");
        List<UUID> events = platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT id FROM lnp_core.outbox WHERE workspace_id = :ws ORDER BY seq")
                .bind("ws", ws).mapTo(UUID.class).list());
        assertEquals(events.subList(0, 3), leasedFor(fanOut, fresh).stream().map(ClaimedDelivery::eventId).toList(),
                "the oldest events first");

        ClaimedDelivery first = leasedFor(fanOut, fresh).getFirst();
        String payload = platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT payload::text FROM lnp_core.outbox WHERE id = :id")
                .bind("id", first.eventId()).mapTo(String.class).one());
        assertEquals(payload, first.payload());
        assertEquals("http://127.0.0.1:9/fresh", first.url());
        assertEquals("probe.burst", first.eventName());
        assertEquals(1, first.secrets().size(), "the subscription's signing secret");
        assertEquals(ws, first.workspaceId());
        assertEquals(until, first.leaseUntil());
        assertEquals(0, first.attempts());
        assertFalse(first.test());

        long leasedRows = Hooks.count(platform.jdbi(), """
                SELECT count(*) FROM lnp_core.webhook_deliveries
                 WHERE workspace_id = ? AND lease_owner = ? AND lease_token = ? AND lease_until = ?
                """, ws, NODE, first.leaseToken(), java.sql.Timestamp.from(until));
        assertEquals(4, leasedRows, "the four leases are in the rows, under one token");

        List<ClaimedDelivery> claimed = queue.claim(now, 100, 100, Map.of(), Set.of(), "other-node",
                now.plus(Duration.ofMinutes(5)));
        assertEquals(11, claimed.stream().filter(c -> c.workspaceId().equals(ws)).count(),
                "a claim takes the eleven left unleased, not the four leased");

        var attempt = new DeliveryQueue.Attempt(NODE, now, Duration.ofMillis(5),
                Outcome.ofResponse(200, "", false, Optional.empty()),
                new RetrySchedule(RandomGenerator.getDefault()).decide(
                        Outcome.ofResponse(200, "", false, Optional.empty()), 1, first.roundStartedAt(), now,
                        Optional.empty()));
        assertTrue(queue.record(first, attempt, now, Duration.ofDays(5)), "the fan-out's lease records its attempt");
        assertEquals("delivered", Hooks.states(platform.jdbi(), fresh).get(first.id()));
    }

    @Test
    void leasesNoMoreThanTheNodesRoomOldestFirst(TestPlatform platform) {
        UUID ws = platform.createWorkspace("fan-out node room");
        String key = platform.fullAccessKey(ws);
        var queue = new DeliveryQueue(platform.jdbi());
        UUID one = subscribe(platform, key, "http://127.0.0.1:9/one", "probe.burst").id();
        UUID two = subscribe(platform, key, "http://127.0.0.1:9/two", "probe.burst").id();
        publish(platform, key, 4, "probe.burst");

        Instant now = Instant.now();
        var fanOut = queue.fanOut(now, 100, -1, new DeliveryQueue.Lease(NODE, now.plus(Duration.ofMinutes(5)), 3, 10,
                Map.of()));

        assertEquals(8, fanOut.deliveries());
        assertEquals(3, fanOut.leased().size(), "the node's room");
        UUID oldest = platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT id FROM lnp_core.outbox WHERE workspace_id = :ws ORDER BY seq LIMIT 1")
                .bind("ws", ws).mapTo(UUID.class).one());
        assertEquals(Set.of(one, two), Set.copyOf(fanOut.leased().stream()
                .filter(d -> d.eventId().equals(oldest)).map(ClaimedDelivery::subscriptionId).toList()),
                "the oldest event's deliveries come first");
    }

    @Test
    void leasesNothingWithoutLeaseAndNothingThatWasAlreadyThere(TestPlatform platform) {
        UUID ws = platform.createWorkspace("fan-out no lease");
        String key = platform.fullAccessKey(ws);
        var queue = new DeliveryQueue(platform.jdbi());
        UUID subscription = subscribe(platform, key, "http://127.0.0.1:9/none", "probe.burst").id();
        publish(platform, key, 2, "probe.burst");
        // A delivery of the first event exists already (a node that wrote it and died before marking the row).
        platform.jdbi().useHandle(h -> h.createUpdate("""
                        INSERT INTO lnp_core.webhook_deliveries (id, workspace_id, subscription_id, event_id,
                                    event_name, state, round_started_at, next_attempt_at, created_at)
                        SELECT gen_random_uuid(), workspace_id, :s, id, event_name, 'pending', now(), now(), now()
                          FROM lnp_core.outbox WHERE workspace_id = :ws ORDER BY seq LIMIT 1
                        """).bind("s", subscription).bind("ws", ws).execute());

        Instant now = Instant.now();
        var fanOut = queue.fanOut(now, 100, -1, new DeliveryQueue.Lease(NODE, now.plus(Duration.ofMinutes(5)), 10, 10,
                Map.of()));
        assertEquals(2, fanOut.rows());
        assertEquals(1, fanOut.deliveries(), "the existing delivery is kept, not written again");
        assertEquals(1, fanOut.leased().size(), "only the delivery this fan-out wrote is leased");

        publish(platform, key, 2, "probe.burst");
        var unleased = queue.fanOut(now, 100, -1, DeliveryQueue.Lease.none());
        assertEquals(2, unleased.deliveries());
        assertTrue(unleased.leased().isEmpty());
        assertEquals(0, Hooks.count(platform.jdbi(), """
                SELECT count(*) FROM lnp_core.webhook_deliveries
                 WHERE subscription_id = ? AND lease_owner IS NULL AND lease_until IS NOT NULL
                """, subscription), "no half-written lease");
    }

    private static List<ClaimedDelivery> leasedFor(DeliveryQueue.FanOut fanOut, UUID subscription) {
        return fanOut.leased().stream().filter(d -> d.subscriptionId().equals(subscription)).toList();
    }
}
