package dev.lnp.testkit.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The subscription routes: create, list, get, update, delete, secrets, validation, scopes and tenancy. */
@PlatformTest(plugins = "probe", config = {"lnp.webhooks.allowed_networks=127.0.0.0/8", "lnp.webhooks.dispatch=false"})
class WebhookSubscriptionsTest {

    static final String BASE = "/api/v1/webhooks/subscriptions";
    static final String RECEIVER = "http://127.0.0.1:9/hook";

    private static TestResponse create(TestPlatform platform, String key, String json) {
        return platform.post(BASE, key, json);
    }

    @Test
    void createReturnsTheSecretOnceAndStoresCanonicalEventNames(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("create"));
        var created = create(platform, key, """
                {"url": "%s", "events": ["burst.legacy", "probe.burst", "probe.*"], "description": "CRM sync"}
                """.formatted(RECEIVER));
        assertEquals(201, created.status(), created.body());
        JsonNode data = created.data();
        String secret = data.path("secret").asText();
        assertTrue(secret.startsWith("whsec_"), secret);
        assertTrue(secret.matches("whsec_[A-Za-z0-9+/]{43}="), "standard base64 with padding, as Standard Webhooks "
                + "verifiers decode it: " + secret);
        assertEquals(32, Base64.getDecoder().decode(secret.substring("whsec_".length())).length, "32 random bytes");
        assertEquals(List.of("probe.burst", "probe.*"), texts(data.path("events")),
                "the alias becomes its canonical name and the repeat disappears");
        assertEquals("CRM sync", data.path("description").asText());
        assertTrue(data.path("enabled").asBoolean());

        var fetched = platform.get(BASE + "/" + data.path("id").asText(), key);
        assertEquals(200, fetched.status());
        assertFalse(fetched.data().has("secret"), "the secret is shown only at creation and rotation");
        assertFalse(fetched.body().contains(secret));
        var listed = platform.get(BASE, key);
        assertFalse(listed.body().contains(secret));

        var other = create(platform, key, "{\"url\": \"" + RECEIVER + "\", \"events\": [\"*\"]}");
        assertNotEquals(secret, other.data().path("secret").asText(), "every subscription has its own secret");
    }

    @Test
    void listIsPaginatedNewestFirst(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("list"));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(create(platform, key, "{\"url\": \"" + RECEIVER + "\", \"events\": [\"probe.other\"]}")
                    .data().path("id").asText());
        }
        var first = platform.get(BASE + "?limit=2", key);
        assertEquals(200, first.status());
        assertEquals(2, first.data().size());
        assertEquals(ids.get(2), first.data().get(0).path("id").asText());
        assertEquals(3, first.json().path("pagination").path("total").asInt());
        assertTrue(first.json().path("pagination").path("has_more").asBoolean(
                first.json().path("pagination").path("hasMore").asBoolean()));
        var second = platform.get(BASE + "?limit=2&page=2", key);
        assertEquals(1, second.data().size());
        assertEquals(ids.get(0), second.data().get(0).path("id").asText());
        assertEquals(400, platform.get(BASE + "?per_page=2", key).status());
    }

    @Test
    void patchChangesOnlyWhatIsGiven(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("patch"));
        String id = create(platform, key, "{\"url\": \"" + RECEIVER + "\", \"events\": [\"probe.burst\"], "
                + "\"description\": \"first\"}").data().path("id").asText();
        var changed = platform.patch(BASE + "/" + id, key, "{\"events\": [\"burst.legacy\", \"probe.other\"], \"enabled\": false}");
        assertEquals(200, changed.status(), changed.body());
        assertEquals(List.of("probe.burst", "probe.other"), texts(changed.data().path("events")));
        assertFalse(changed.data().path("enabled").asBoolean());
        assertEquals("first", changed.data().path("description").asText());
        assertEquals(RECEIVER, changed.data().path("url").asText());

        var cleared = platform.patch(BASE + "/" + id, key, "{\"description\": null, \"url\": \"http://127.0.0.1:10/other\"}");
        assertEquals(200, cleared.status(), cleared.body());
        assertTrue(cleared.data().path("description").isNull());
        assertEquals("http://127.0.0.1:10/other", cleared.data().path("url").asText());

        var empty = platform.patch(BASE + "/" + id, key, "{}");
        assertEquals(422, empty.status(), "an empty PATCH is invalid");
    }

    @Test
    void deleteRemovesTheSubscription(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("delete"));
        String id = create(platform, key, "{\"url\": \"" + RECEIVER + "\", \"events\": [\"*\"]}").data().path("id").asText();
        assertEquals(204, platform.delete(BASE + "/" + id, key).status());
        assertEquals(404, platform.get(BASE + "/" + id, key).status());
        assertEquals(404, platform.delete(BASE + "/" + id, key).status());
    }

    @Test
    void badInputIsAProblemNamingTheField(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("invalid"));
        assertField(create(platform, key, "{\"events\": [\"*\"]}"), 422, "/url", "required");
        assertField(create(platform, key, "{\"url\": \"" + RECEIVER + "\", \"events\": []}"), 422, "/events", "minItems");
        assertField(create(platform, key, "{\"url\": \"" + RECEIVER + "\", \"events\": [\"*\"], \"secret\": \"mine\"}"),
                422, "/secret", "unknown");
        assertField(create(platform, key, "{\"url\": \"" + RECEIVER + "\", \"events\": [\"*\"], \"enabled\": \"yes\"}"),
                422, "/enabled", "type");
        assertField(create(platform, key, "{\"url\": \"" + RECEIVER + "\", \"events\": [\"*\"], \"description\": \""
                + "d".repeat(501) + "\"}"), 422, "/description", "maxLength");
        assertField(create(platform, key, "{\"url\": \"" + RECEIVER + "\", \"events\": [\"probe.nope\"]}"),
                422, "/events/0", "event");
        assertField(create(platform, key, "{\"url\": \"" + RECEIVER + "\", \"events\": [\"probe.burst\", \"nothing.*\"]}"),
                422, "/events/1", "event");
        assertField(create(platform, key, "{\"url\": \"" + RECEIVER + "\", \"events\": [\"probe*\"]}"),
                422, "/events/0", "event");
        assertField(create(platform, key, "{\"url\": \"ftp://127.0.0.1/x\", \"events\": [\"*\"]}"), 422, "/url", "scheme");
        assertField(create(platform, key, "{\"url\": \"not a url\", \"events\": [\"*\"]}"), 422, "/url", "format");
        assertField(create(platform, key, "{\"url\": \"http://user:pw@127.0.0.1/x\", \"events\": [\"*\"]}"),
                422, "/url", "credentials");
        assertField(create(platform, key, "{\"url\": \"http://no-such-host.invalid/x\", \"events\": [\"*\"]}"),
                422, "/url", "unresolvable");
        var both = create(platform, key, "{\"url\": \"ftp://x\", \"events\": [\"probe.nope\"]}");
        assertEquals(422, both.status());
        assertEquals(2, both.json().path("errors").size(), "every bad field is named at once: " + both.body());
        assertEquals(400, platform.send("POST", BASE, key, "{not json", java.util.Map.of()).status());
        assertEquals(415, platform.send("POST", BASE, key, "url=x", java.util.Map.of("Content-Type", "text/plain")).status());

        String id = create(platform, key, "{\"url\": \"" + RECEIVER + "\", \"events\": [\"*\"]}").data().path("id").asText();
        assertField(platform.patch(BASE + "/" + id, key, "{\"url\": null}"), 422, "/url", "type");
        assertField(platform.patch(BASE + "/" + id, key, "{\"events\": [\"nope\"]}"), 422, "/events/0", "event");
        assertField(platform.post(BASE + "/" + id + "/recover", key, "{\"since\": \"yesterday\"}"), 422, "/since", "format");
        assertField(platform.post(BASE + "/" + id + "/recover", key, "{}"), 422, "/since", "required");
        assertField(platform.get(BASE + "/" + id + "/deliveries?status=lost", key), 400, "?status", "enum");
    }

    @Test
    void unknownAndForeignIdsAreNotFound(TestPlatform platform) {
        String mine = platform.fullAccessKey(platform.createWorkspace("mine"));
        String theirs = platform.fullAccessKey(platform.createWorkspace("theirs"));
        String foreign = create(platform, theirs, "{\"url\": \"" + RECEIVER + "\", \"events\": [\"*\"]}").data()
                .path("id").asText();
        for (String id : List.of(foreign, UUID.randomUUID().toString())) {
            String one = BASE + "/" + id;
            assertEquals(404, platform.get(one, mine).status(), id);
            assertEquals(404, platform.patch(one, mine, "{\"enabled\": false}").status(), id);
            assertEquals(404, platform.delete(one, mine).status(), id);
            assertEquals(404, platform.post(one + "/rotate-secret", mine, null).status(), id);
            assertEquals(404, platform.post(one + "/test", mine, null).status(), id);
            assertEquals(404, platform.get(one + "/deliveries", mine).status(), id);
            assertEquals(404, platform.get(one + "/deliveries/" + UUID.randomUUID(), mine).status(), id);
            assertEquals(404, platform.post(one + "/deliveries/" + UUID.randomUUID() + "/redeliver", mine, null).status(), id);
            assertEquals(404, platform.post(one + "/recover", mine, "{\"since\": \"2024-01-01T00:00:00Z\"}").status(), id);
        }
        assertEquals(200, platform.get(BASE + "/" + foreign, theirs).status(), "still there for its owner");
        assertEquals(0, platform.get(BASE, mine).json().path("pagination").path("total").asInt());
        String own = create(platform, mine, "{\"url\": \"" + RECEIVER + "\", \"events\": [\"*\"]}").data().path("id").asText();
        assertEquals(404, platform.get(BASE + "/" + own + "/deliveries/" + UUID.randomUUID(), mine).status());
        var malformed = platform.get(BASE + "/" + own + "/deliveries/not-a-uuid", mine);
        assertEquals(400, malformed.status());
        assertEquals("{delivery_id}", malformed.json().path("errors").get(0).path("pointer").asText());
        for (String path : List.of(BASE + "/not-a-uuid", BASE + "/not-a-uuid/deliveries", BASE + "/not-a-uuid/test")) {
            var response = path.endsWith("/test") ? platform.post(path, mine, null) : platform.get(path, mine);
            assertEquals(400, response.status(), path);
            assertEquals("{id}", response.json().path("errors").get(0).path("pointer").asText(), path);
        }
    }

    @Test
    void scopesGuardReadAndWrite(TestPlatform platform) {
        var ws = platform.createWorkspace("scopes");
        String reader = platform.key(ws, "webhooks.read");
        String writer = platform.key(ws, "webhooks.write");
        String neither = platform.key(ws, "probe.read");
        assertEquals(403, create(platform, reader, "{\"url\": \"" + RECEIVER + "\", \"events\": [\"*\"]}").status());
        var created = create(platform, writer, "{\"url\": \"" + RECEIVER + "\", \"events\": [\"*\"]}");
        assertEquals(201, created.status());
        assertEquals(403, platform.get(BASE, writer).status());
        assertEquals(200, platform.get(BASE, reader).status());
        assertEquals(200, platform.get("/api/v1/webhooks/events", reader).status());
        assertEquals(403, platform.get("/api/v1/webhooks/events", neither).status());
        assertEquals(403, platform.post(BASE + "/" + created.data().path("id").asText() + "/test", reader, null).status());
        assertEquals(401, platform.get(BASE, null).status());
    }

    @Test
    void theCatalogListsEveryRegisteredEventWithSchemaAndAliases(TestPlatform platform) {
        String key = platform.key(platform.createWorkspace("catalog"), "webhooks.read");
        var catalog = platform.get("/api/v1/webhooks/events", key);
        assertEquals(200, catalog.status(), catalog.body());
        List<String> names = new ArrayList<>();
        catalog.data().forEach(e -> names.add(e.path("name").asText()));
        var registered = platform.platform().registry().events().stream().map(e -> e.type().name()).toList();
        assertEquals(registered, names, "generated from the registry, nothing more, nothing less");
        JsonNode burst = null;
        for (JsonNode e : catalog.data()) {
            if (e.path("name").asText().equals("probe.burst")) {
                burst = e;
            }
        }
        assertEquals(List.of("burst.legacy"), texts(burst.path("aliases")));
        assertEquals("probe", burst.path("plugin").asText());
        assertEquals("integer", burst.path("payload_schema").path("properties").path("i").path("type").asText());
        assertTrue(names.contains("webhooks.test"));
    }

    @Test
    void rotationIssuesANewSecretAndReportsTheOverlap(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("rotate"));
        var created = create(platform, key, "{\"url\": \"" + RECEIVER + "\", \"events\": [\"*\"]}").data();
        String id = created.path("id").asText();
        var rotated = platform.post(BASE + "/" + id + "/rotate-secret", key, null);
        assertEquals(200, rotated.status(), rotated.body());
        String secret = rotated.data().path("secret").asText();
        assertTrue(secret.startsWith("whsec_"));
        assertNotEquals(created.path("secret").asText(), secret);
        var until = java.time.Instant.parse(rotated.data().path("previous_secret_expires_at").asText());
        var expected = java.time.Instant.now().plus(java.time.Duration.ofHours(24));
        assertTrue(Math.abs(java.time.Duration.between(until, expected).toSeconds()) < 60, until.toString());

        var secrets = platform.jdbi().withHandle(h -> h.createQuery("""
                        SELECT secret FROM lnp_core.webhook_secrets
                         WHERE subscription_id = :id AND (expires_at IS NULL OR expires_at > now())
                         ORDER BY created_at DESC
                        """).bind("id", UUID.fromString(id)).mapTo(String.class).list());
        assertEquals(List.of(secret, created.path("secret").asText()), secrets, "both sign during the overlap");

        var again = platform.post(BASE + "/" + id + "/rotate-secret", key, null).data().path("secret").asText();
        var valid = platform.jdbi().withHandle(h -> h.createQuery("""
                        SELECT secret FROM lnp_core.webhook_secrets
                         WHERE subscription_id = :id AND (expires_at IS NULL OR expires_at > now())
                         ORDER BY created_at DESC
                        """).bind("id", UUID.fromString(id)).mapTo(String.class).list());
        assertEquals(List.of(again, secret), valid, "a second rotation ends the oldest secret at once");
    }

    static void assertField(TestResponse response, int status, String pointer, String rule) {
        assertEquals(status, response.status(), response.body());
        assertTrue(response.header("Content-Type").orElse("").startsWith("application/problem+json"), response.toString());
        boolean named = false;
        for (JsonNode error : response.json().path("errors")) {
            if (error.path("pointer").asText().equals(pointer) && error.path("rule").asText().equals(rule)) {
                named = true;
            }
        }
        assertTrue(named, "expected " + pointer + " (" + rule + ") in " + response.body());
    }

    static List<String> texts(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }
}
