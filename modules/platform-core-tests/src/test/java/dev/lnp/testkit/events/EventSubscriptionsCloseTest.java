package dev.lnp.testkit.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.core.events.EventSubscriptions;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Closing the in-process subscriptions (a node stopping) while a handler runs: the delivery finishes, nothing is
 * interrupted, and the subscriber's cursor is released and advanced, so the next node picks up at once rather
 * than after the cursor's 60 s lease.
 */
@PlatformTest
class EventSubscriptionsCloseTest {

    @Test
    void aDeliveryUnderWayFinishesAndReleasesItsCursorWhenTheSubscriptionsClose(TestPlatform platform)
            throws Exception {
        String event = "close_test.happened_" + UUID.randomUUID().toString().replace("-", "");
        CountDownLatch handling = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        AtomicBoolean finished = new AtomicBoolean();
        PlatformPlugin plugin = registrar -> dev.lnp.api.internal.events.Subscriptions.of(registrar)
                .subscribe(event, delivered -> {
                    handling.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        interrupted.set(true);
                        Thread.currentThread().interrupt();
                        return;
                    }
                    finished.set(true);
                });
        var registry = new PluginRegistry();
        registry.register("closetest", plugin);
        EventSubscriptions subscriptions = EventSubscriptions.start(platform.jdbi(), registry, Duration.ofMillis(20));
        platform.jdbi().useHandle(h -> h.createUpdate(
                        "INSERT INTO lnp_core.outbox (workspace_id, event_name, payload) VALUES (:ws, :name, '{}')")
                .bind("ws", UUID.randomUUID()).bind("name", event).execute());
        assertTrue(handling.await(10, TimeUnit.SECONDS), "the event reached its handler");

        Thread closing = Thread.ofVirtual().start(subscriptions::close);
        Thread.sleep(200);
        release.countDown();
        closing.join(Duration.ofSeconds(10));

        assertFalse(closing.isAlive(), "close returned");
        assertFalse(interrupted.get(), "the handler was not interrupted");
        assertTrue(finished.get(), "the handler finished its delivery");
        Map<String, Object> cursor = platform.jdbi().withHandle(h -> h.createQuery("""
                        SELECT held_by, last_seq = (SELECT max(seq) FROM lnp_core.outbox WHERE event_name = :name)
                               AS reached
                          FROM lnp_core.event_cursors WHERE subscriber = :s""")
                .bind("s", "closetest:" + event).bind("name", event).mapToMap().one());
        assertNull(cursor.get("held_by"), "the cursor is released, not held for its lease");
        assertEquals(true, cursor.get("reached"), "the cursor passed the delivered event");
    }
}
