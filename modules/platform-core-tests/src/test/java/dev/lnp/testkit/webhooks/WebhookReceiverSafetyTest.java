package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.WebhookReceiver.await;
import static dev.lnp.testkit.webhooks.Hooks.SUBSCRIPTIONS;
import static dev.lnp.testkit.webhooks.Hooks.seconds;
import static dev.lnp.testkit.webhooks.WebhookSubscriptionsTest.assertField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A deployment without an allow-list: inner addresses are refused when saving and when connecting; payloads are capped. */
@PlatformTest(plugins = "probe", config = {"lnp.webhooks.max_payload_bytes=2048", "lnp.webhooks.poll_interval_ms=200"})
class WebhookReceiverSafetyTest {

    @Test
    void receiversAtInnerAddressesAreRefusedWhenSaved(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("ssrf"));
        try (var receiver = new WebhookReceiver()) {
            for (String url : List.of(
                    "http://localhost:" + receiver.port() + "/hook", // a host name resolving to 127.0.0.1
                    receiver.url("/hook"),
                    "http://[::1]:8080/hook",
                    "http://169.254.169.254/latest/meta-data/",
                    "http://10.0.0.1/hook",
                    "http://192.168.1.10/hook",
                    "http://0.0.0.0:8080/hook",
                    "http://[fd00::1]/hook",
                    "http://[::ffff:127.0.0.1]/hook")) {
                var refused = platform.post(SUBSCRIPTIONS, key, "{\"url\": \"" + url + "\", \"events\": [\"*\"]}");
                assertField(refused, 422, "/url", "blocked_address");
            }
            assertEquals(0, receiver.received().size());
            var localhost = platform.post(SUBSCRIPTIONS, key,
                    "{\"url\": \"http://localhost:" + receiver.port() + "/hook\", \"events\": [\"*\"]}");
            assertTrue(localhost.json().path("detail").asText().contains("127.0.0.1"), localhost.body());
        }
    }

    @Test
    void anAddressThatTurnedInnerAfterSavingIsRefusedAtConnectTime(TestPlatform platform) {
        UUID ws = platform.createWorkspace("rebind");
        String key = platform.fullAccessKey(ws);
        try (var receiver = new WebhookReceiver()) {
            // As if "localhost" had resolved to a public address when the subscription was saved.
            UUID sub = UUID.randomUUID();
            platform.jdbi().useHandle(h -> {
                h.execute("INSERT INTO lnp_core.webhook_subscriptions (id, workspace_id, url, events, created_at, updated_at) "
                        + "VALUES (?, ?, ?, ARRAY['*'], now(), now())", sub, ws, "http://localhost:" + receiver.port() + "/hook");
                h.execute("INSERT INTO lnp_core.webhook_secrets (subscription_id, workspace_id, secret, created_at) "
                        + "VALUES (?, ?, 'whsec_rebinding-test-secret-00000000000000', now())", sub, ws);
            });
            var patch = platform.patch(SUBSCRIPTIONS + "/" + sub, key, "{\"url\": \"" + receiver.url("/x") + "\"}");
            assertField(patch, 422, "/url", "blocked_address");

            Hooks.publish(platform, key, 1, "probe.burst");
            await(seconds(10), "the refused attempt recorded", () -> Hooks.attempts(platform.jdbi(), sub) == 1);
            assertEquals(0, receiver.received().size(), "nothing reached the loopback receiver");
            String id = platform.get(SUBSCRIPTIONS + "/" + sub + "/deliveries", key).data().get(0).path("id").asText();
            JsonNode attempt = Hooks.delivery(platform, key, sub, id).path("attempt_history").get(0);
            assertTrue(attempt.path("status_code").isNull());
            assertTrue(attempt.path("error").asText().contains("refused to connect"), attempt.toString());
            assertTrue(attempt.path("error").asText().contains("loopback"), attempt.toString());
            Hooks.unsubscribe(platform, key, sub);
        }
    }

    @Test
    void anOversizedEventPayloadIsRefusedAndItsChangeRolledBack(TestPlatform platform) {
        UUID ws = platform.createWorkspace("payload");
        String key = platform.fullAccessKey(ws);
        long before = Hooks.count(platform.jdbi(), "SELECT count(*) FROM lnp_core.outbox WHERE workspace_id = ?", ws);
        var big = platform.post("/api/v1/probe/events", key, "{\"count\": 1, \"pad\": 5000}");
        assertEquals(413, big.status(), big.body());
        assertEquals("payload_too_large", big.json().path("code").asText(), big.body());
        assertEquals(before, Hooks.count(platform.jdbi(), "SELECT count(*) FROM lnp_core.outbox WHERE workspace_id = ?", ws));
        var small = platform.post("/api/v1/probe/events", key, "{\"count\": 1, \"pad\": 1000}");
        assertEquals(201, small.status(), small.body());
    }
}
