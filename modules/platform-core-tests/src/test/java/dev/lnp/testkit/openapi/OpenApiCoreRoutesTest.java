package dev.lnp.testkit.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.OpenApiContract;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The core's own {@code /api/v1} routes (webhooks, users) answer what {@code /openapi/v1.json} declares for them
 * ({@link OpenApiContract}), and the document marks their id path parameters as UUIDs.
 */
@PlatformTest(plugins = "probe", config = {"lnp.webhooks.allowed_networks=127.0.0.0/8", "lnp.webhooks.dispatch=false"})
class OpenApiCoreRoutesTest {

    private static final String SUBSCRIPTIONS = "/api/v1/webhooks/subscriptions";

    @Test
    void idParametersAreUuidsAndEveryStatusIsListed(TestPlatform platform) {
        JsonNode doc = OpenApiContract.of(platform).document();
        JsonNode redeliver = doc.at("/paths/~1api~1v1~1webhooks~1subscriptions~1{id}~1deliveries~1{delivery_id}"
                + "~1redeliver/post");
        assertEquals("uuid", redeliver.at("/parameters/0/schema/format").asText());
        assertEquals("uuid", redeliver.at("/parameters/1/schema/format").asText());
        assertTrue(redeliver.path("responses").has("409") && redeliver.path("responses").has("503"));
        assertEquals("#/components/schemas/User", doc.at("/components/schemas/UserPage/properties/data/items/$ref")
                .asText());
    }

    @Test
    void realAnswersMatchTheDocument(TestPlatform platform) {
        OpenApiContract contract = OpenApiContract.of(platform);
        UUID ws = platform.createWorkspace("openapi-core");
        String key = platform.fullAccessKey(ws);

        contract.check("GET", "/api/v1/webhooks/events", platform.get("/api/v1/webhooks/events", key));
        TestResponse created = contract.check("POST", SUBSCRIPTIONS, platform.post(SUBSCRIPTIONS, key,
                "{\"url\": \"http://127.0.0.1:9/hook\", \"events\": [\"*\"], \"description\": \"sync\"}"));
        assertEquals(201, created.status(), created.body());
        String id = created.data().path("id").asText();
        String one = SUBSCRIPTIONS + "/{id}";
        contract.check("GET", SUBSCRIPTIONS, platform.get(SUBSCRIPTIONS, key));
        contract.check("GET", one, platform.get(SUBSCRIPTIONS + "/" + id, key));
        contract.check("PATCH", one, platform.patch(SUBSCRIPTIONS + "/" + id, key, "{\"enabled\": false}"));
        contract.check("POST", one + "/rotate-secret", platform.post(SUBSCRIPTIONS + "/" + id + "/rotate-secret", key,
                null));
        String delivery = contract.check("POST", one + "/test", platform.post(SUBSCRIPTIONS + "/" + id + "/test", key,
                null)).data().path("delivery_id").asText();
        contract.check("GET", one + "/deliveries", platform.get(SUBSCRIPTIONS + "/" + id + "/deliveries", key));
        contract.check("GET", one + "/deliveries/{delivery_id}", platform.get(SUBSCRIPTIONS + "/" + id
                + "/deliveries/" + delivery, key));
        contract.check("POST", one + "/recover", platform.post(SUBSCRIPTIONS + "/" + id + "/recover", key,
                "{\"since\": \"2026-01-01T00:00:00Z\"}"));
        contract.check("GET", "/api/v1/webhooks/notices", platform.get("/api/v1/webhooks/notices", key));
        contract.check("DELETE", one, platform.delete(SUBSCRIPTIONS + "/" + id, key));
        assertEquals(404, contract.check("GET", one, platform.get(SUBSCRIPTIONS + "/" + id, key)).status());
        assertEquals(422, contract.check("POST", SUBSCRIPTIONS, platform.post(SUBSCRIPTIONS, key,
                "{\"url\": \"http://127.0.0.1:9/hook\", \"events\": []}")).status());

        TestResponse users = contract.check("GET", "/api/v1/users", platform.get("/api/v1/users", key));
        assertEquals(200, users.status(), users.body());
        if (users.data().size() > 0) {
            contract.check("GET", "/api/v1/users/{id}", platform.get("/api/v1/users/"
                    + users.data().get(0).path("id").asText(), key));
        }
        assertEquals(404, contract.check("GET", "/api/v1/users/{id}", platform.get("/api/v1/users/"
                + UUID.randomUUID(), key)).status());
        assertEquals(400, contract.check("GET", "/api/v1/users/{id}", platform.get("/api/v1/users/me", key))
                .status());
    }
}
