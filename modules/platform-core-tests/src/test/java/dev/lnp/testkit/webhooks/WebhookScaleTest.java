package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.WebhookReceiver.await;
import static dev.lnp.testkit.webhooks.Hooks.seconds;
import static dev.lnp.testkit.webhooks.Hooks.subscribe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Two platform processes on one database deliver 10,000 events: each exactly once, never the same delivery
 * twice at once, both taking part. Also measures throughput and commit-to-receiver lag; the figures are written
 * to target/webhook-performance.txt.
 */
class WebhookScaleTest {

    static final int EVENTS = 10_000;
    static final Map<String, String> CONFIG = Map.of("lnp.webhooks.allowed_networks", "127.0.0.0/8",
            "lnp.webhooks.poll_interval_ms", "1000");

    @Test
    void twoNodesDeliverTenThousandEventsEachOnceAndNeverTwiceAtOnce() throws Exception {
        try (var first = TestPlatform.start("scale", List.of("probe"), null, CONFIG);
                var second = TestPlatform.startOn(first, List.of("probe"), CONFIG);
                var receiver = new WebhookReceiver()) {
            UUID ws = first.createWorkspace("scale");
            String key = first.fullAccessKey(ws);
            var sub = subscribe(first, key, receiver.url("/hook"), "probe.burst");

            long started = System.nanoTime();
            for (int i = 0; i < EVENTS / 500; i++) {
                Hooks.publish(i % 2 == 0 ? first : second, key, 500, "probe.burst"); // through both nodes' APIs
            }
            long committed = System.nanoTime();
            await(seconds(600), "all delivered", () -> Hooks.count(first.jdbi(),
                    "SELECT count(*) FROM lnp_core.webhook_deliveries WHERE subscription_id = ? AND state = 'delivered'",
                    sub.id()) == EVENTS);
            long last = receiver.received().stream().mapToLong(WebhookReceiver.Received::nanos).max().orElseThrow();

            Set<String> ids = new HashSet<>();
            receiver.received().forEach(r -> ids.add(r.deliveryId()));
            assertEquals(EVENTS, ids.size(), "one delivery per event");
            assertEquals(EVENTS, receiver.received().size(), "and each sent once");
            assertEquals(0, receiver.overlaps(), "no delivery in flight twice at once");
            assertEquals(0, Hooks.count(first.jdbi(), """
                    SELECT count(*) FROM (SELECT delivery_id FROM lnp_core.webhook_attempts a
                      JOIN lnp_core.webhook_deliveries d ON d.id = a.delivery_id
                     WHERE d.subscription_id = ? GROUP BY delivery_id HAVING count(*) > 1) twice
                    """, sub.id()), "no delivery attempted twice");
            Map<String, Long> byNode = new HashMap<>();
            first.jdbi().withHandle(h -> h.createQuery("""
                            SELECT a.node, count(*) AS n FROM lnp_core.webhook_attempts a
                              JOIN lnp_core.webhook_deliveries d ON d.id = a.delivery_id
                             WHERE d.subscription_id = :s GROUP BY a.node
                            """).bind("s", sub.id()).mapToMap().list())
                    .forEach(row -> byNode.put((String) row.get("node"), (Long) row.get("n")));
            assertEquals(2, byNode.size(), "both nodes delivered: " + byNode);

            double seconds = (last - started) / 1e9;
            record(String.format("two nodes, one receiver, %d events published in 20 transactions of 500: "
                    + "all delivered %.1f s after the first commit (%.0f deliveries/s; publishing took %.1f s); "
                    + "split between nodes %s", EVENTS, seconds, EVENTS / seconds, (committed - started) / 1e9,
                    byNode.values()));
        }
    }

    @Test
    void commitToReceiverLagOfSingleEvents() throws Exception {
        try (var platform = TestPlatform.start("lag", List.of("probe"), null, CONFIG);
                var receiver = new WebhookReceiver()) {
            String key = platform.fullAccessKey(platform.createWorkspace("lag"));
            subscribe(platform, key, receiver.url("/hook"), "probe.burst");
            int samples = 300;
            List<Double> lags = new ArrayList<>();
            for (int i = 0; i < samples + 20; i++) {
                int before = receiver.received().size();
                Hooks.publish(platform, key, 1, "probe.burst");
                long committed = System.nanoTime(); // the response comes after the commit
                await(seconds(10), "event " + i, () -> receiver.received().size() == before + 1);
                long arrived = receiver.received().get(before).nanos();
                if (i >= 20) { // the first ones warm the JIT up
                    lags.add((arrived - committed) / 1e6);
                }
                Thread.sleep(20);
            }
            Collections.sort(lags);
            double p50 = lags.get(samples / 2);
            double p95 = lags.get(samples * 95 / 100);
            double p99 = lags.get(samples * 99 / 100);
            double max = lags.get(samples - 1);
            assertTrue(p95 < 500, "woken by NOTIFY, not by the 1 s poll: p95 " + p95 + " ms");

            long burstStart = System.nanoTime();
            int before = receiver.received().size();
            for (int i = 0; i < 5; i++) {
                Hooks.publish(platform, key, 1000, "probe.burst");
            }
            await(seconds(300), "the burst", () -> receiver.received().size() == before + 5_000);
            long burstLast = receiver.received().stream().mapToLong(WebhookReceiver.Received::nanos).max().orElseThrow();
            double burstSeconds = (burstLast - burstStart) / 1e9;

            record(String.format("one node, commit-to-receiver lag of single events (%d samples, 20 ms apart): "
                    + "p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms", samples, p50, p95, p99, max));
            record(String.format("one node, one receiver, 5,000 events in 5 transactions: %.1f s (%.0f deliveries/s)",
                    burstSeconds, 5_000 / burstSeconds));
        }
    }

    private static synchronized void record(String line) throws Exception {
        System.out.println("WEBHOOK PERFORMANCE: " + line);
        Path file = Path.of("target", "webhook-performance.txt");
        Files.writeString(file, line + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
