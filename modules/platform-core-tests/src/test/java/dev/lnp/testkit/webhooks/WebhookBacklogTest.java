package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.WebhookReceiver.await;
import static dev.lnp.testkit.webhooks.Hooks.publish;
import static dev.lnp.testkit.webhooks.Hooks.seconds;
import static dev.lnp.testkit.webhooks.Hooks.subscribe;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Events still waiting in the outbox when a subscription is created (no node was dispatching, as after an
 * upgrade that found a backlog) are not sent to it; events after its creation are.
 */
class WebhookBacklogTest {

    static final Map<String, String> API_ONLY = Map.of("lnp.webhooks.allowed_networks", "127.0.0.0/8",
            "lnp.webhooks.dispatch", "false");
    static final Map<String, String> DISPATCHING = Map.of("lnp.webhooks.allowed_networks", "127.0.0.0/8");

    @Test
    void aNewSubscriptionReceivesOnlyEventsThatOccurAfterIt() throws Exception {
        try (var api = TestPlatform.start("backlog", List.of("probe"), null, API_ONLY);
                var receiver = new WebhookReceiver()) {
            UUID ws = api.createWorkspace("backlog");
            String key = api.fullAccessKey(ws);
            publish(api, key, 3, "probe.other");
            subscribe(api, key, receiver.url("/hook"), "probe.other", "probe.burst");
            publish(api, key, 1, "probe.burst");

            try (var dispatcher = TestPlatform.startOn(api, List.of("probe"), DISPATCHING)) {
                await(seconds(10), "the event after the subscription", () -> receiver.received().size() == 1);
                Hooks.drain(api.jdbi(), ws);
                assertEquals(1, receiver.received().size(), "the three older events are not delivered");
                assertEquals("probe.burst", receiver.received().get(0).event());
            }
        }
    }
}
