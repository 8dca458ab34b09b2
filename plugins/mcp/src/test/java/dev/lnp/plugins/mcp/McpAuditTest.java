package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Every tool call is recorded (connection, tool, outcome, duration, entity ids, never arguments) and listed per workspace. */
@PlatformTest(plugins = {"mcp", "crm", "projects", "issues"})
class McpAuditTest {

    /** The audit is written off the request path: wait until it shows {@code count} calls. */
    private static JsonNode audit(TestPlatform platform, String key, String query, int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        TestResponse response;
        do {
            response = platform.get("/api/mcp/audit" + query, key);
            assertEquals(200, response.status(), response.body());
            if (response.json().path("pagination").path("total").asInt() >= count) {
                return response.json();
            }
            sleep();
        } while (System.nanoTime() < deadline);
        throw new AssertionError("the audit did not reach " + count + " calls: " + response.body());
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void everyCallIsRecordedWithItsOutcomeAndEntitiesButNotItsArguments(TestPlatform platform) {
        UUID ws = platform.createWorkspace("audit");
        String key = platform.fullAccessKey(ws);
        String limited = platform.key(ws, "mcp.use", "contacts.read");
        String contact = platform.post("/api/mcp/tools/call", key,
                "{\"name\":\"crm_create_contact\",\"arguments\":{\"email\":\"secret.person@example.com\",\"notes\":\"private\"}}")
                .json().path("data").path("id").asText();
        platform.post("/api/mcp/tools/call", limited, "{\"name\":\"crm_delete_contact\",\"arguments\":{\"id\":\"" + contact + "\"}}");
        platform.post("/api/mcp/tools/call", key, "{\"name\":\"crm_nope\",\"arguments\":{}}");
        platform.post("/api/mcp/tools/call", key, "{\"name\":\"crm_create_contact\",\"arguments\":{\"email\":\"not-an-email\"}}");
        platform.post("/api/mcp/tools/call", key, "{\"name\":\"crm_update_contact\",\"arguments\":{\"id\":\""
                + UUID.randomUUID() + "\",\"first_name\":\"Gone\"}}");
        McpFixtures.callTool(platform, key, "crm_list_contacts", "{}");

        JsonNode page = audit(platform, key, "", 6);
        JsonNode items = page.path("data");
        assertEquals(6, items.size(), items.toString());
        assertEquals(List.of("ok", "rejected", "invalid_arguments", "unknown_tool", "denied", "ok"),
                List.of(items.get(0).path("outcome").asText(), items.get(1).path("outcome").asText(),
                        items.get(2).path("outcome").asText(), items.get(3).path("outcome").asText(),
                        items.get(4).path("outcome").asText(), items.get(5).path("outcome").asText()));
        JsonNode created = items.get(5);
        assertEquals("crm_create_contact", created.path("tool").asText());
        assertEquals(McpFixtures.connectionOf(platform, key).toString(), created.path("connectionId").asText());
        assertEquals("/api/mcp/tools/call", created.path("endpoint").asText());
        assertTrue(created.path("durationMs").asDouble() > 0);
        assertTrue(created.path("errorCode").isNull());
        assertEquals(contact, created.path("entities").get(0).path("id").asText());
        assertEquals("created", created.path("entities").get(0).path("action").asText());
        JsonNode denied = items.get(4);
        assertEquals("tool_denied", denied.path("errorCode").asText());
        assertEquals(McpFixtures.connectionOf(platform, limited).toString(), denied.path("connectionId").asText());
        assertEquals("/api/mcp", items.get(0).path("endpoint").asText(), "protocol calls are recorded too");
        JsonNode listed = items.get(0).path("entities");
        assertEquals(1, listed.size(), listed.toString());
        assertEquals(contact, listed.get(0).path("id").asText(), "a list call names the rows it read");
        assertEquals("contact", listed.get(0).path("type").asText());
        assertEquals("read", listed.get(0).path("action").asText());

        String everything = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT string_agg(t::text, ' ') FROM lnp_core.tool_calls t WHERE workspace_id = :ws")
                .bind("ws", ws).mapTo(String.class).one());
        assertFalse(everything.contains("secret.person"), everything);
        assertFalse(everything.contains("private"), everything);
        assertFalse(everything.contains("not-an-email"), everything);
    }

    @Test
    void theListingFiltersAndPagesAndShowsOnlyTheCallersWorkspace(TestPlatform platform) {
        UUID mine = platform.createWorkspace("mine");
        UUID theirs = platform.createWorkspace("theirs");
        String key = platform.fullAccessKey(mine);
        String other = platform.fullAccessKey(theirs);
        for (int i = 0; i < 3; i++) {
            platform.post("/api/mcp/tools/call", key, "{\"name\":\"projects_list\"}");
        }
        platform.post("/api/mcp/tools/call", key, "{\"name\":\"projects_get\",\"arguments\":{\"id\":\"" + UUID.randomUUID() + "\"}}");
        platform.post("/api/mcp/tools/call", other, "{\"name\":\"projects_list\"}");
        audit(platform, other, "", 1);

        JsonNode all = audit(platform, key, "", 4);
        assertEquals(4, all.path("pagination").path("total").asInt(), "another workspace's calls are not listed");
        assertEquals(3, audit(platform, key, "?tool=projects_list", 3).path("pagination").path("total").asInt());
        JsonNode rejected = audit(platform, key, "?outcome=rejected", 1);
        assertEquals(1, rejected.path("pagination").path("total").asInt());
        assertEquals("not_found", rejected.path("data").get(0).path("errorCode").asText());
        JsonNode paged = platform.get("/api/mcp/audit?limit=2&page=2", key).json();
        assertEquals(2, paged.path("data").size());
        assertFalse(paged.path("pagination").path("hasMore").asBoolean());
        assertEquals(0, platform.get("/api/mcp/audit?connection_id=" + McpFixtures.connectionOf(platform, other), key)
                .json().path("pagination").path("total").asInt());
        assertEquals(400, platform.get("/api/mcp/audit?outcome=OK", key).status());
    }

    @Test
    void aCallAnOlderVersionRecordedIsListedWithItsEntities(TestPlatform platform) {
        UUID deal = UUID.randomUUID();
        UUID contact = UUID.randomUUID();
        // As versions before the grouped column wrote it: one object per ref in `entities`, no groups.
        JsonNode entities = listedAsRecordedIn(platform, "entities",
                "[{\"type\": \"deal\", \"id\": \"" + deal + "\", \"action\": \"updated\"},"
                        + " {\"type\": \"contact\", \"id\": \"" + contact + "\", \"action\": \"read\"}]");
        assertEquals(2, entities.size(), entities.toString());
        assertEquals(deal.toString(), entities.get(0).path("id").asText());
        assertEquals("updated", entities.get(0).path("action").asText());
        assertEquals(contact.toString(), entities.get(1).path("id").asText());
        assertEquals("contact", entities.get(1).path("type").asText());
    }

    @Test
    void aCallTheVersionsOfTheTwentyFifthRecordedIsListedWithItsEntities(TestPlatform platform) {
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        // As older versions wrote it: the ids as JSON text in `entity_groups`, no `entity_ids`.
        JsonNode entities = listedAsRecordedIn(platform, "entity_groups",
                "[{\"type\": \"contact\", \"action\": \"read\", \"ids\": [\"" + first + "\", \"" + second + "\"]}]");
        assertEquals(2, entities.size(), entities.toString());
        assertEquals(first.toString(), entities.get(0).path("id").asText());
        assertEquals(second.toString(), entities.get(1).path("id").asText());
        assertEquals("read", entities.get(1).path("action").asText());
    }

    /** The entities the audit lists for a call an older version recorded with {@code json} in {@code column}. */
    private static JsonNode listedAsRecordedIn(TestPlatform platform, String column, String json) {
        UUID ws = platform.createWorkspace("older-rows-" + column);
        String key = platform.fullAccessKey(ws);
        platform.jdbi().useHandle(h -> h.createUpdate("""
                        INSERT INTO lnp_core.tool_calls (at, request_id, workspace_id, connection_id, endpoint, tool,
                                                         outcome, duration_ms, %s)
                        VALUES (now(), 'older', :ws, :conn, '/api/mcp', 'crm_update_deal', 'ok', 3.5,
                                CAST(:json AS jsonb))""".formatted(column))
                .bind("ws", ws).bind("conn", McpFixtures.connectionOf(platform, key)).bind("json", json)
                .execute());
        return audit(platform, key, "", 1).path("data").get(0).path("entities");
    }

    @Test
    void listingTheAuditNeedsItsOwnScope(TestPlatform platform) {
        String key = platform.key(platform.createWorkspace("no-audit"), "mcp.use", "projects.read");
        TestResponse refused = platform.get("/api/mcp/audit", key);
        assertEquals(403, refused.status(), refused.body());
        assertEquals(401, platform.get("/api/mcp/audit", null).status());
    }
}
