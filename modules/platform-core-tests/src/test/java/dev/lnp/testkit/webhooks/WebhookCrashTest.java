package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.WebhookReceiver.await;
import static dev.lnp.testkit.webhooks.Hooks.publish;
import static dev.lnp.testkit.webhooks.Hooks.seconds;
import static dev.lnp.testkit.webhooks.Hooks.subscribe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.webhooks.signature.WebhookSignature;
import dev.lnp.testkit.TestDatabases;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver;
import dev.lnp.testkit.WebhookReceiver.Reply;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of the delivering process at the worst moments, then a restart: nothing committed is lost and a
 * delivery keeps its id. The API (publishing, subscriptions) runs in this JVM without dispatching; the
 * dispatcher runs in a child JVM that the test kills. To hit a moment exactly, the test holds a lock the child
 * needs next and kills it while it waits there.
 */
class WebhookCrashTest {

    static TestPlatform api;
    static TestDatabases.Server server;
    static int children;

    @BeforeAll
    static void start() {
        api = TestPlatform.start("crash", List.of("probe"), null, Map.of(
                "lnp.webhooks.allowed_networks", "127.0.0.0/8", "lnp.webhooks.dispatch", "false"));
        server = TestDatabases.server();
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    static ChildProcess child() throws Exception {
        return ChildProcess.start("crash-" + (++children), Map.of(
                "lnp.database.url", api.databaseUrl(),
                "lnp.database.user", server.user(),
                "lnp.database.password", server.password(),
                "lnp.database.pool.size", "4",
                "lnp.http.host", "127.0.0.1",
                "lnp.http.port", "0",
                "lnp.webhooks.allowed_networks", "127.0.0.0/8",
                "lnp.webhooks.request_timeout_ms", "3000",
                "lnp.webhooks.lease_seconds", "6",
                "lnp.webhooks.poll_interval_ms", "200"));
    }

    static Connection superuser() throws Exception {
        Connection c = DriverManager.getConnection(api.databaseUrl(), server.user(), server.password());
        c.setAutoCommit(false);
        return c;
    }

    /**
     * Waits until a backend of this database waits for a lock while running a statement containing one of
     * {@code sql}.
     */
    static void awaitBlocked(String... sql) {
        await(seconds(30), "a backend blocked in " + String.join(" or ", sql), () -> java.util.Arrays.stream(sql)
                .anyMatch(statement -> Hooks.count(api.jdbi(), """
                        SELECT count(*) FROM pg_stat_activity
                         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE ?
                        """, "%" + statement + "%") > 0));
    }

    @Test
    void killedBetweenCommitAndSendingNothingIsLost() throws Exception {
        String key = api.fullAccessKey(api.createWorkspace("before-send"));
        try (var receiver = new WebhookReceiver()) {
            var sub = subscribe(api, key, receiver.url("/hook"), "probe.burst");
            var first = child();
            try (Connection lock = superuser()) {
                lock.createStatement().execute("LOCK TABLE lnp_core.webhook_deliveries IN EXCLUSIVE MODE");
                publish(api, key, 20, "probe.burst"); // committed
                // The child is turning them into deliveries, or, when the lock caught its loop in the claim that
                // follows a fan-out (it also writes webhook_deliveries), it waits there before the fan-out: either
                // way it is stopped between the commit and any send.
                awaitBlocked("WITH batch AS", "WITH RECURSIVE waiting");
                first.kill();
                lock.rollback();
            } finally {
                first.close();
            }
            assertEquals(0, receiver.received().size(), "nothing was sent before the kill");
            // Whether the dead node's last statement committed (its deliveries then wait, unclaimed) or not (the
            // outbox rows are still undispatched), no attempt was made.
            assertEquals(0, Hooks.attempts(api.jdbi(), sub.id()));

            try (var second = child()) {
                await(seconds(60), "all 20 delivered after the restart",
                        () -> Hooks.delivered(api.jdbi(), sub.id()) == 20);
                Set<String> events = new HashSet<>();
                receiver.received().forEach(r -> events.add(r.json().path("event_id").asText()));
                assertEquals(20, events.size(), "every committed event arrived");
            }
        }
    }

    @Test
    void killedAfterTheReceiversAnswerBeforeRecordingItTheSameDeliveryComesAgain() throws Exception {
        String key = api.fullAccessKey(api.createWorkspace("after-2xx"));
        try (var receiver = new WebhookReceiver(); Connection lock = superuser()) {
            var sub = subscribe(api, key, receiver.url("/hook"), "probe.burst");
            AtomicBoolean first = new AtomicBoolean(true);
            CountDownLatch locked = new CountDownLatch(1);
            receiver.respond(request -> {
                if (first.getAndSet(false)) {
                    try {
                        // The child must wait for this row before it can record the attempt.
                        lock.createStatement().execute("SELECT 1 FROM lnp_core.webhook_deliveries WHERE id = '"
                                + UUID.fromString(request.deliveryId()) + "' FOR UPDATE");
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    locked.countDown();
                }
                return Reply.status(200);
            });
            var dying = child();
            try {
                publish(api, key, 1, "probe.burst");
                assertTrue(locked.await(60, TimeUnit.SECONDS), "the first attempt arrived");
                awaitBlocked("INSERT INTO lnp_core.webhook_attempts"); // 200 received, not yet recorded
                dying.kill();
                lock.rollback();
            } finally {
                dying.close();
            }
            String id = receiver.received().get(0).deliveryId();
            var row = api.jdbi().withHandle(h -> h.createQuery("""
                            SELECT state, attempts, lease_owner FROM lnp_core.webhook_deliveries WHERE id = :id
                            """).bind("id", UUID.fromString(id)).mapToMap().one());
            assertEquals("pending", row.get("state"), "the 200 died with the process");
            assertEquals(0, row.get("attempts"));
            String deadNode = (String) row.get("lease_owner");

            try (var restarted = child()) {
                await(seconds(60), "delivered after the restart", () -> Hooks.states(api.jdbi(), sub.id())
                        .containsValue("delivered"));
                assertTrue(receiver.received().size() >= 2);
                for (var request : receiver.received()) {
                    assertEquals(id, request.deliveryId(), "the same delivery id, so the receiver can deduplicate");
                }
                var again = receiver.received().get(receiver.received().size() - 1);
                assertEquals(receiver.received().get(0).json().path("event_id"), again.json().path("event_id"));
                WebhookSignature.verify(sub.secret(), again.timestamp(), again.signature(), again.body(), Instant.now());
                var nodes = api.jdbi().withHandle(h -> h.createQuery(
                        "SELECT node FROM lnp_core.webhook_attempts WHERE delivery_id = :id")
                        .bind("id", UUID.fromString(id)).mapTo(String.class).list());
                assertTrue(!nodes.isEmpty() && !nodes.contains(deadNode), "picked up by the new process: " + nodes);
            }
        }
    }

    @Test
    void killedWhileTheRequestIsInFlightTheSameDeliveryComesAgain() throws Exception {
        String key = api.fullAccessKey(api.createWorkspace("in-flight"));
        try (var receiver = new WebhookReceiver()) {
            var sub = subscribe(api, key, receiver.url("/hook"), "probe.burst");
            CountDownLatch arrived = new CountDownLatch(1);
            CountDownLatch killed = new CountDownLatch(1);
            AtomicBoolean first = new AtomicBoolean(true);
            receiver.respond(request -> {
                if (first.getAndSet(false)) {
                    arrived.countDown();
                    try {
                        killed.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return Reply.status(200);
            });
            var dying = child();
            try {
                publish(api, key, 1, "probe.burst");
                assertTrue(arrived.await(60, TimeUnit.SECONDS));
                dying.kill();
            } finally {
                killed.countDown();
                dying.close();
            }
            try (var restarted = child()) {
                await(seconds(60), "delivered after the restart", () -> Hooks.states(api.jdbi(), sub.id())
                        .containsValue("delivered"));
                assertTrue(receiver.received().size() >= 2);
                assertEquals(1, receiver.received().stream().map(WebhookReceiver.Received::deliveryId).distinct().count(),
                        "the same delivery id every time");
            }
        }
    }
}
