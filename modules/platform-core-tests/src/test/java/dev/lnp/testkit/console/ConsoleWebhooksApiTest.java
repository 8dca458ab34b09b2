package dev.lnp.testkit.console;

import static dev.lnp.testkit.WebhookReceiver.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver;
import dev.lnp.testkit.console.ConsoleWebhooksTest.Person;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The webhook operations under {@code /console/api/webhooks} for a signed-in session, over real HTTP and
 * PostgreSQL with the platform's dispatcher sending to a real receiver: every operation, the activity each change
 * leaves, and the refusals (member 403, missing CSRF 403, unknown field 422, another workspace's id 404, malformed
 * id 400).
 */
@PlatformTest(plugins = "probe", config = {
        "lnp.webhooks.allowed_networks=127.0.0.0/8",
        "lnp.webhooks.request_timeout_ms=1000",
        "lnp.webhooks.lease_seconds=5",
        "lnp.webhooks.poll_interval_ms=200"})
class ConsoleWebhooksApiTest {

    private static final String API = "/console/api/webhooks";

    private static JsonNode json(ConsoleClient.Page page) {
        return Json.parse(page.body());
    }

    private static String csrf(Person person) {
        var session = person.client().json("GET", "/console/api/session", null, null);
        assertEquals(200, session.status(), session.body());
        return json(session).path("data").path("csrf_token").asText();
    }

    private static void assertProblem(ConsoleClient.Page page, int status, String code) {
        assertEquals(status, page.status(), page.body());
        assertTrue(page.header("Content-Type").startsWith("application/problem+json"), page.header("Content-Type"));
        assertEquals(code, json(page).path("code").asText(), page.body());
    }

    @Test
    void anOwnerManagesASubscriptionAndItsDeliveriesOverJson(TestPlatform platform) throws Exception {
        var owner = ConsoleWebhooksTest.owner(platform, "json-webhooks");
        var client = owner.client();
        String csrf = csrf(owner);
        try (var receiver = new WebhookReceiver()) {
            var events = client.json("GET", API + "/events", null, null);
            assertEquals(200, events.status(), events.body());
            assertTrue(events.body().contains("\"probe.burst\""), events.body());
            assertTrue(json(events).has("pagination"));

            String body = "{\"url\":\"" + receiver.url("/hook") + "\",\"events\":[\"probe.burst\"],\"description\":\"ci\"}";
            assertProblem(client.json("POST", API + "/subscriptions", body, null), 403, "csrf_token_invalid");
            var unknown = client.json("POST", API + "/subscriptions",
                    "{\"url\":\"" + receiver.url("/hook") + "\",\"events\":[\"probe.burst\"],\"admin\":true}", csrf);
            assertProblem(unknown, 422, "validation_failed");
            assertEquals("/admin", json(unknown).path("errors").get(0).path("pointer").asText());
            var badUrl = client.json("POST", API + "/subscriptions",
                    "{\"url\":\"http://10.1.2.3/hook\",\"events\":[\"probe.burst\"]}", csrf);
            assertProblem(badUrl, 422, "validation_failed");
            assertEquals("/url", json(badUrl).path("errors").get(0).path("pointer").asText());
            var badEvent = client.json("POST", API + "/subscriptions",
                    "{\"url\":\"" + receiver.url("/hook") + "\",\"events\":[\"no.such\"]}", csrf);
            assertProblem(badEvent, 422, "validation_failed");
            assertProblem(client.json("POST", API + "/subscriptions", "{\"url\":", csrf), 400, "malformed_json");
            assertEquals(0, json(client.json("GET", API + "/subscriptions", null, null)).path("pagination")
                    .path("total").asInt());

            var created = client.json("POST", API + "/subscriptions", body, csrf);
            assertEquals(201, created.status(), created.body());
            String id = json(created).path("data").path("id").asText();
            String secret = json(created).path("data").path("secret").asText();
            assertTrue(secret.length() > 20, created.body());
            assertEquals("probe.burst", json(created).path("data").path("events").get(0).asText());

            var list = client.json("GET", API + "/subscriptions?limit=10", null, null);
            assertEquals(200, list.status(), list.body());
            assertEquals(1, json(list).path("pagination").path("total").asInt());
            assertEquals(10, json(list).path("pagination").path("limit").asInt());
            assertEquals(id, json(list).path("data").get(0).path("id").asText());
            assertFalse(list.body().contains(secret), "the secret is shown only once");
            assertProblem(client.json("GET", API + "/subscriptions?limit=1000", null, null), 400, "invalid_query");

            var got = client.json("GET", API + "/subscriptions/" + id, null, null);
            assertEquals(200, got.status(), got.body());
            assertEquals("ci", json(got).path("data").path("description").asText());
            // The API routes see the same subscription: one service.
            assertEquals(receiver.url("/hook"), ConsoleWebhooksTest.apiSubscription(platform, owner, UUID.fromString(id))
                    .path("url").asText());

            var patched = client.json("PATCH", API + "/subscriptions/" + id,
                    "{\"description\":null,\"events\":[\"probe.*\"]}", csrf);
            assertEquals(200, patched.status(), patched.body());
            assertTrue(json(patched).path("data").path("description").isNull(), patched.body());
            assertEquals("probe.*", json(patched).path("data").path("events").get(0).asText());
            var badPatch = client.json("PATCH", API + "/subscriptions/" + id, "{\"secret\":\"x\"}", csrf);
            assertProblem(badPatch, 422, "validation_failed");
            assertEquals("/secret", json(badPatch).path("errors").get(0).path("pointer").asText());

            var rotated = client.json("POST", API + "/subscriptions/" + id + "/rotate-secret", null, csrf);
            assertEquals(200, rotated.status(), rotated.body());
            assertNotEquals(secret, json(rotated).path("data").path("secret").asText());
            assertFalse(json(rotated).path("data").path("previous_secret_expires_at").asText().isEmpty());

            var test = client.json("POST", API + "/subscriptions/" + id + "/test", null, csrf);
            assertEquals(202, test.status(), test.body());
            String deliveryId = json(test).path("data").path("delivery_id").asText();
            await(Duration.ofSeconds(10), "the test delivery", () -> receiver.received().size() == 1);
            await(Duration.ofSeconds(10), "the delivery recorded as delivered", () -> "delivered".equals(
                    json(client.json("GET", API + "/subscriptions/" + id + "/deliveries/" + deliveryId, null, null))
                            .path("data").path("status").asText()));

            var deliveries = client.json("GET", API + "/subscriptions/" + id + "/deliveries?status=delivered", null, null);
            assertEquals(200, deliveries.status(), deliveries.body());
            assertEquals(1, json(deliveries).path("pagination").path("total").asInt());
            assertEquals(deliveryId, json(deliveries).path("data").get(0).path("id").asText());
            assertProblem(client.json("GET", API + "/subscriptions/" + id + "/deliveries?status=lost", null, null), 400,
                    "invalid_query");
            var one = client.json("GET", API + "/subscriptions/" + id + "/deliveries/" + deliveryId, null, null);
            assertEquals(1, json(one).path("data").path("attempt_history").size(), one.body());

            var redelivered = client.json("POST",
                    API + "/subscriptions/" + id + "/deliveries/" + deliveryId + "/redeliver", null, csrf);
            assertEquals(202, redelivered.status(), redelivered.body());
            await(Duration.ofSeconds(10), "the redelivery", () -> receiver.received().size() == 2);
            assertProblem(client.json("POST", API + "/subscriptions/" + id + "/deliveries/" + UUID.randomUUID()
                    + "/redeliver", null, csrf), 404, "not_found");

            String since = Instant.now().minusSeconds(3600).toString();
            var recovered = client.json("POST", API + "/subscriptions/" + id + "/recover",
                    "{\"since\":\"" + since + "\"}", csrf);
            assertEquals(202, recovered.status(), recovered.body());
            assertEquals(0, json(recovered).path("data").path("requeued").asInt(), "nothing failed");
            var badSince = client.json("POST", API + "/subscriptions/" + id + "/recover", "{\"since\":\"yesterday\"}",
                    csrf);
            assertProblem(badSince, 422, "validation_failed");
            assertEquals("/since", json(badSince).path("errors").get(0).path("pointer").asText());
            assertProblem(client.json("POST", API + "/subscriptions/" + id + "/recover",
                    "{\"since\":\"" + since + "\",\"all\":true}", csrf), 422, "validation_failed");

            var notices = client.json("GET", API + "/notices", null, null);
            assertEquals(200, notices.status(), notices.body());
            assertEquals(0, json(notices).path("pagination").path("total").asInt());

            assertEquals(204, client.json("DELETE", API + "/subscriptions/" + id, null, csrf).status());
            assertProblem(client.json("GET", API + "/subscriptions/" + id, null, null), 404, "not_found");
            assertProblem(client.json("DELETE", API + "/subscriptions/" + id, null, csrf), 404, "not_found");
        }
        List<String> activity = ConsoleWebhooksTest.activity(platform, owner.workspace());
        for (String action : List.of("webhook.created", "webhook.updated", "webhook.secret_rotated",
                "webhook.test_sent", "webhook.redelivered", "webhook.recovered", "webhook.deleted")) {
            assertEquals(1, activity.stream().filter(a -> a.startsWith(action + " ")).count(), action + " in " + activity);
        }
    }

    @Test
    void membersOtherWorkspacesAndMalformedIdsAreRefused(TestPlatform platform) {
        var owner = ConsoleWebhooksTest.owner(platform, "json-webhooks-owner");
        UUID id = ConsoleWebhooksTest.create(owner, "http://127.0.0.1:9/hook", "probe.burst");
        String one = API + "/subscriptions/" + id;

        var member = ConsoleWebhooksTest.signIn(platform, owner.workspace(), "member");
        String memberCsrf = csrf(member);
        assertProblem(member.client().json("GET", API + "/subscriptions", null, null), 403, "forbidden");
        assertProblem(member.client().json("GET", one, null, null), 403, "forbidden");
        assertProblem(member.client().json("POST", one + "/rotate-secret", null, memberCsrf), 403, "forbidden");
        assertProblem(member.client().json("DELETE", one, null, memberCsrf), 403, "forbidden");

        var admin = ConsoleWebhooksTest.signIn(platform, owner.workspace(), "admin");
        assertEquals(200, admin.client().json("GET", one, null, null).status(), "an admin may");

        var stranger = ConsoleWebhooksTest.owner(platform, "json-webhooks-stranger");
        String strangerCsrf = csrf(stranger);
        assertProblem(stranger.client().json("GET", one, null, null), 404, "not_found");
        assertProblem(stranger.client().json("PATCH", one, "{\"enabled\":false}", strangerCsrf), 404, "not_found");
        assertProblem(stranger.client().json("DELETE", one, null, strangerCsrf), 404, "not_found");
        assertProblem(stranger.client().json("POST", one + "/test", null, strangerCsrf), 404, "not_found");
        assertProblem(stranger.client().json("GET", one + "/deliveries", null, null), 404, "not_found");
        assertEquals(200, owner.client().json("GET", one, null, null).status(), "still there for its owner");
        assertTrue(ConsoleWebhooksTest.apiSubscription(platform, owner, id).path("enabled").asBoolean());

        String ownerCsrf = csrf(owner);
        var malformed = owner.client().json("GET", API + "/subscriptions/not-a-uuid", null, null);
        assertProblem(malformed, 400, "invalid_path_parameter");
        assertEquals("{id}", json(malformed).path("errors").get(0).path("pointer").asText());
        assertProblem(owner.client().json("DELETE", API + "/subscriptions/42", null, ownerCsrf), 400,
                "invalid_path_parameter");
        assertProblem(owner.client().json("POST", one + "/deliveries/nope/redeliver", null, ownerCsrf), 400,
                "invalid_path_parameter");
        assertProblem(owner.client().json("PATCH", one, "{\"enabled\":false}", null), 403, "csrf_token_invalid");

        assertProblem(new ConsoleClient(platform.port()).json("GET", API + "/subscriptions", null, null), 401,
                "not_signed_in");
    }
}
