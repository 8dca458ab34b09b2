package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.WebhookReceiver.await;
import static dev.lnp.testkit.webhooks.Hooks.publish;
import static dev.lnp.testkit.webhooks.Hooks.seconds;
import static dev.lnp.testkit.webhooks.Hooks.subscribe;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver;
import dev.lnp.testkit.WebhookReceiver.Reply;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;

/**
 * A receiver's attempt slot bounds requests in flight, not the recording of their outcomes: with one slot and
 * every recording held up by a lock, the receiver still gets each delivery; nor
 * does its local queue of claimed deliveries count those waiting to be recorded.
 */
@PlatformTest(plugins = "probe", config = {
        "lnp.webhooks.allowed_networks=127.0.0.0/8",
        "lnp.webhooks.request_timeout_ms=1000",
        "lnp.webhooks.lease_seconds=30",
        "lnp.webhooks.per_receiver=1",
        "lnp.webhooks.poll_interval_ms=200"})
class WebhookSlotTest {

    @Test
    void aReceiversSlotIsFreeAgainWhileItsLastAnswerIsStillBeingRecorded(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("slots");
        String key = platform.fullAccessKey(ws);
        try (var receiver = new WebhookReceiver()) {
            receiver.respond(r -> Reply.status(204));
            var sub = subscribe(platform, key, receiver.url("/hook"), "probe.burst");
            try (Handle lock = Hooks.recordingBlocked(platform.jdbi())) {
                publish(platform, key, 3, "probe.burst");

                await(seconds(15), "three deliveries through one slot while none can be recorded",
                        () -> receiver.received().size() == 3);
                assertEquals(0, Hooks.delivered(platform.jdbi(), sub.id()),
                        "no outcome recorded while the lock is held");
                lock.rollback();
            }
            await(seconds(15), "all three recorded once the lock is gone",
                    () -> Hooks.delivered(platform.jdbi(), sub.id()) == 3);
            assertEquals(3, receiver.received().size());
        }
    }

    @Test
    void deliveriesWaitingToBeRecordedDoNotFillTheReceiversLocalQueue(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("queue");
        String key = platform.fullAccessKey(ws);
        try (var receiver = new WebhookReceiver()) {
            receiver.respond(r -> Reply.status(204));
            var sub = subscribe(platform, key, receiver.url("/hook"), "probe.burst");
            try (Handle lock = Hooks.recordingBlocked(platform.jdbi())) {
                // Ten deliveries, more than the receiver's local queue (4 per slot, one slot): each answered
                // delivery leaves the queue although its outcome cannot be recorded yet.
                publish(platform, key, 10, "probe.burst");
                await(seconds(15), "ten deliveries sent while none can be recorded",
                        () -> receiver.received().size() == 10);
                assertEquals(0, Hooks.delivered(platform.jdbi(), sub.id()),
                        "no outcome recorded while the lock is held");
                lock.rollback();
            }
            await(seconds(15), "all ten recorded once the lock is gone",
                    () -> Hooks.delivered(platform.jdbi(), sub.id()) == 10);
            assertEquals(10, receiver.received().size(), "each sent once");
        }
    }
}
