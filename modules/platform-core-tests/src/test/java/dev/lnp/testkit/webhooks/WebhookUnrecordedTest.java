package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.WebhookReceiver.await;
import static dev.lnp.testkit.webhooks.Hooks.publish;
import static dev.lnp.testkit.webhooks.Hooks.seconds;
import static dev.lnp.testkit.webhooks.Hooks.subscribe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver;
import dev.lnp.testkit.WebhookReceiver.Reply;
import java.time.Duration;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;

/**
 * A node holds at most four deliveries per attempt slot until their answers are in, and as many again answered but
 * waiting for their batch's commit: with one slot, recording blocked by a lock and twelve deliveries due, more than
 * four are sent (a slow batch no longer uses up the node's room) and no more than eight (memory stays bounded).
 */
@PlatformTest(plugins = "probe", config = {
        "lnp.webhooks.allowed_networks=127.0.0.0/8",
        "lnp.webhooks.request_timeout_ms=1000",
        "lnp.webhooks.lease_seconds=30",
        "lnp.webhooks.max_in_flight=1",
        "lnp.webhooks.per_receiver=1",
        "lnp.webhooks.poll_interval_ms=200"})
class WebhookUnrecordedTest {

    @Test
    void answeredDeliveriesWaitingForTheirCommitLeaveTheNodesRoomAndAreBoundedApart(TestPlatform platform)
            throws Exception {
        UUID ws = platform.createWorkspace("unrecorded");
        String key = platform.fullAccessKey(ws);
        try (var receiver = new WebhookReceiver()) {
            // Answers 100 ms apart, so the node's holdings fall to half while some room for unrecorded ones is left.
            receiver.respond(r -> Reply.status(204).after(Duration.ofMillis(100)));
            var sub = subscribe(platform, key, receiver.url("/hook"), "probe.burst");
            try (Handle lock = Hooks.recordingBlocked(platform.jdbi())) {
                publish(platform, key, 12, "probe.burst");

                await(seconds(15), "more than the node's four held deliveries sent while none can be recorded",
                        () -> receiver.received().size() > 4);
                Thread.sleep(1_500); // several polls and wake-ups
                int sent = receiver.received().size();
                assertTrue(sent <= 8, "at most four held and four unrecorded, but " + sent + " were sent");
                assertEquals(0, Hooks.delivered(platform.jdbi(), sub.id()),
                        "no outcome recorded while the lock is held");
                lock.rollback();
            }
            await(seconds(20), "all twelve recorded once the lock is gone",
                    () -> Hooks.delivered(platform.jdbi(), sub.id()) == 12);
            assertEquals(12, receiver.received().size(), "each sent once");
        }
    }
}
