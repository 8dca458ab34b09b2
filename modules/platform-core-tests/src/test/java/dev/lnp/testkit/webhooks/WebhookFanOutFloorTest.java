package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.webhooks.Hooks.publish;
import static dev.lnp.testkit.webhooks.Hooks.subscribe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver;
import dev.lnp.webhooks.DeliveryQueue;
import dev.lnp.webhooks.Dispatcher;
import dev.lnp.outbound.PlatformOutboundGuard;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fan-out scans above a floor most of the time (FanOutFloor): an event whose transaction took its place in the
 * outbox early and committed late, below the floor, must still be delivered, by the scan from the start that
 * comes once per window. One dispatcher of the test's own, one pass at a time, on a clock the test moves.
 */
@PlatformTest(plugins = "probe", config = {"lnp.webhooks.allowed_networks=127.0.0.0/8", "lnp.webhooks.dispatch=false"})
class WebhookFanOutFloorTest {

    @AfterEach
    void forgetSubscriptions(TestPlatform platform) {
        platform.jdbi().useHandle(h -> h.execute("DELETE FROM lnp_core.webhook_subscriptions"));
    }

    @Test
    void anEventCommittedLateBelowTheFloorIsStillDelivered(TestPlatform platform) throws Exception {
        UUID workspace = platform.createWorkspace("late commit");
        String key = platform.fullAccessKey(workspace);
        var clock = new WebhookScheduleTest.MovableClock(Instant.now());
        var settings = WebhookScheduleTest.SETTINGS;
        try (var receiver = new WebhookReceiver();
             var dispatcher = new Dispatcher(new DeliveryQueue(platform.jdbi()), settings, clock,
                     PlatformOutboundGuard.allowing(settings.allowedNetworks()), "floor-node");
             Handle late = platform.jdbi().open()) {
            subscribe(platform, key, receiver.url("/late"), "probe.burst");
            // A writing transaction takes its place in the outbox now and commits only at the end.
            late.begin();
            long lateSeq = late.createQuery("""
                            INSERT INTO lnp_core.outbox (workspace_id, event_name, payload)
                            VALUES (:ws, 'probe.burst', '{"late": true}') RETURNING seq
                            """).bind("ws", workspace).mapTo(Long.class).one();
            publish(platform, key, 3, "probe.burst");
            long highest = platform.jdbi().withHandle(h -> h.createQuery(
                    "SELECT max(seq) FROM lnp_core.outbox WHERE workspace_id = :ws").bind("ws", workspace)
                    .mapTo(Long.class).one());
            assertTrue(highest > lateSeq, "the committed events come after the open one in the outbox");

            dispatcher.runOnce(); // the node's first pass scans from the start: the three committed events
            assertEquals(3, receiver.received().size());
            clock.advance(Duration.ofMillis(61_500));
            dispatcher.runOnce(); // a window after the first: from the start again, nothing new
            late.commit();

            clock.advance(Duration.ofMillis(500));
            dispatcher.runOnce(); // above the floor (the first pass's highest seq): the late event is below it
            assertEquals(3, receiver.received().size(), "the pass above the floor does not see the late event");

            clock.advance(Duration.ofSeconds(60));
            dispatcher.runOnce(); // a window after the last scan from the start: the next one finds it
            assertEquals(4, receiver.received().size(), "the late event is delivered once the scan from the start comes");
            assertTrue(receiver.received().get(3).json().path("data").path("late").asBoolean(),
                    receiver.received().get(3).json().toString());
            clock.advance(Duration.ofSeconds(61));
            dispatcher.runOnce();
            assertEquals(4, receiver.received().size(), "and only once");
        }
    }
}
