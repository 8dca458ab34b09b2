package dev.lnp.testkit.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.core.events.EventSubscriptions;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;

/**
 * How the in-process subscriptions read the outbox: a row whose transaction took its seq before a row the cursor
 * passed and committed after it still arrives (the look-back), and a look-back full of rows already handled does
 * not hold back the next event.
 */
@PlatformTest
class EventSubscriptionsPollTest {

    @Test
    void aRowCommittedAfterTheCursorPassedItArrivesOnce(TestPlatform platform) throws Exception {
        String event = uniqueEvent();
        List<UUID> delivered = new CopyOnWriteArrayList<>();
        try (EventSubscriptions subscriptions = subscribe(platform, event, delivered)) {
            try (Handle late = platform.jdbi().open()) {
                late.begin();
                UUID lateId = insert(late, event);
                UUID onTime = platform.jdbi().withHandle(h -> insert(h, event));
                await(() -> delivered.contains(onTime), "the committed event arrived");
                late.commit();
                await(() -> delivered.contains(lateId), "the event committed later, with the lower seq, arrived");
            }
            Thread.sleep(300);
            assertEquals(2, delivered.size(), "each event arrived once: " + delivered);
        }
    }

    @Test
    void aLookBackFullOfHandledRowsDoesNotHoldBackTheNextEvent(TestPlatform platform) throws Exception {
        String event = uniqueEvent();
        List<UUID> delivered = new CopyOnWriteArrayList<>();
        try (EventSubscriptions subscriptions = subscribe(platform, event, delivered)) {
            // More than a poll's batch (100), all within the look-back once handled.
            platform.jdbi().useTransaction(h -> {
                for (int i = 0; i < 150; i++) {
                    insert(h, event);
                }
            });
            await(() -> delivered.size() == 150, "the first 150 events arrived");
            UUID next = platform.jdbi().withHandle(h -> insert(h, event));
            // Before, the look-back's 100 oldest handled rows filled every poll until they aged out (30 s).
            await(() -> delivered.contains(next), "the next event arrived at once");
            assertEquals(151, delivered.size(), "each event arrived once");
        }
    }

    private static String uniqueEvent() {
        return "poll_test.happened_" + UUID.randomUUID().toString().replace("-", "");
    }

    private static EventSubscriptions subscribe(TestPlatform platform, String event, List<UUID> delivered) {
        PlatformPlugin plugin = registrar -> dev.lnp.api.internal.events.Subscriptions.of(registrar)
                .subscribe(event, e -> delivered.add(e.id()));
        var registry = new PluginRegistry();
        registry.register("polltest", plugin);
        return EventSubscriptions.start(platform.jdbi(), registry, Duration.ofMillis(20));
    }

    private static UUID insert(Handle handle, String event) {
        return handle.createQuery("INSERT INTO lnp_core.outbox (workspace_id, event_name, payload)"
                        + " VALUES (:ws, :name, '{}') RETURNING id")
                .bind("ws", UUID.randomUUID()).bind("name", event).mapTo(UUID.class).one();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "within 10 s: " + what);
            Thread.sleep(10);
        }
    }
}
