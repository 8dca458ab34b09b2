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
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.RepeatedTest;

/**
 * Deleting a subscription while the dispatcher records attempts of its deliveries and moves its failure streak:
 * the delete and the recording lock the same subscription and delivery rows, and neither may lose to the other.
 */
@PlatformTest(plugins = "probe", config = {
        "lnp.webhooks.allowed_networks=127.0.0.0/8",
        "lnp.webhooks.request_timeout_ms=1000",
        "lnp.webhooks.per_receiver=16",
        "lnp.webhooks.breaker_failures=1000",
        "lnp.webhooks.poll_interval_ms=50"})
class WebhookDeleteWhileDeliveringTest {

    @RepeatedTest(3)
    void aSubscriptionIsDeletedWhileItsFailingDeliveriesAreRecorded(TestPlatform platform, RepetitionInfo repetition) {
        String key = platform.fullAccessKey(platform.createWorkspace("delete-busy-" + repetition.getCurrentRepetition()));
        try (var failing = new WebhookReceiver()) {
            failing.respond(r -> Reply.status(500));
            var sub = subscribe(platform, key, failing.url("/down"), "probe.burst");
            publish(platform, key, 300, "probe.burst");
            await(seconds(10), "attempts being recorded", () -> Hooks.attempts(platform.jdbi(), sub.id()) >= 20);
            Hooks.unsubscribe(platform, key, sub.id());
            assertEquals(0, Hooks.count(platform.jdbi(),
                    "SELECT count(*) FROM lnp_core.webhook_deliveries WHERE subscription_id = ?", sub.id()));
        }
    }
}
