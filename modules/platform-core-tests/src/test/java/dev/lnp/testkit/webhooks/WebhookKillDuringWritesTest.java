package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.WebhookReceiver.await;
import static dev.lnp.testkit.webhooks.Hooks.seconds;
import static dev.lnp.testkit.webhooks.Hooks.subscribe;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.TestDatabases;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver;
import dev.lnp.testkit.WebhookReceiver.Reply;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of the platform (a child JVM that serves the API and dispatches webhooks) in the
 * middle of a burst of concurrent writes, then a restart. Every acknowledged write is stored, every stored event
 * reaches the receiver under one delivery id, and nothing uncommitted is delivered. Prints the books.
 */
class WebhookKillDuringWritesTest {

    @Test
    void killedDuringABurstOfWritesEveryAcknowledgedWriteIsStoredAndDelivered() throws Exception {
        try (TestPlatform api = TestPlatform.start("kill-burst", List.of("probe"), null, Map.of(
                "lnp.webhooks.allowed_networks", "127.0.0.0/8", "lnp.webhooks.dispatch", "false"));
                var receiver = new WebhookReceiver()) {
            TestDatabases.Server server = TestDatabases.server();
            receiver.respond(r -> Reply.status(200).after(Duration.ofMillis(5)));
            UUID ws = api.createWorkspace("kill-burst");
            String key = api.fullAccessKey(ws);
            subscribe(api, key, receiver.url("/hook"), "probe.burst");
            Map<String, String> config = Map.of(
                    "lnp.database.url", api.databaseUrl(),
                    "lnp.database.user", server.user(),
                    "lnp.database.password", server.password(),
                    "lnp.database.pool.size", "6",
                    "lnp.http.host", "127.0.0.1",
                    "lnp.http.port", "0",
                    "lnp.webhooks.allowed_networks", "127.0.0.0/8",
                    "lnp.webhooks.request_timeout_ms", "3000",
                    "lnp.webhooks.lease_seconds", "6",
                    "lnp.webhooks.poll_interval_ms", "200");

            var first = ChildProcess.start("kill-burst-1", config);
            WriteBurst burst;
            int deliveredBeforeKill;
            try {
                burst = new WriteBurst(first.port(), key, 6);
                await(seconds(60), "150 writes acknowledged and some delivered",
                        () -> burst.acknowledged.size() >= 150 && !receiver.received().isEmpty());
                first.kill(); // SIGKILL with writes in flight
                deliveredBeforeKill = receiver.received().size();
                burst.close();
            } finally {
                first.close();
            }
            assertTrue(burst.outcomes.containsKey("no answer") || burst.attempted.size() > burst.acknowledged.size(),
                    "the kill landed during the burst: " + burst.outcomes);

            try (var second = ChildProcess.start("kill-burst-2", config)) {
                Ledger books = Ledger.settle(api.jdbi(), ws, burst, receiver, seconds(60));
                System.out.printf("kill -9 during writes: attempted %d, acknowledged %d, stored %d, delivered %d "
                                + "(%d before the kill), duplicates %d (same delivery id); outcomes %s%n",
                        books.attempted(), books.acknowledged(), books.stored(), books.delivered(), deliveredBeforeKill,
                        books.duplicates(), burst.outcomes);
            }
        }
    }
}
