package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.core.auth.Connections;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The contract endpoints: GET /api/mcp/session, GET /api/mcp/tools/list, POST /api/mcp/tools/call. */
@PlatformTest(plugins = {"mcp", "crm", "projects", "issues"})
class McpContractEndpointsTest {

    private static List<String> names(JsonNode array) {
        List<String> names = new ArrayList<>();
        array.forEach(n -> names.add(n.isTextual() ? n.asText() : n.path("name").asText()));
        return names;
    }

    @Test
    void theSessionCountsAndNamesTheAllowedToolsAndListsExactlyTheGrantedScopes(TestPlatform platform) {
        UUID ws = platform.createWorkspace("session");
        Instant expiry = Instant.now().plus(30, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS);
        String key = platform.connections().create(new Connections.NewConnection(ws, "agent",
                List.of("mcp.use", "contacts.read", "deals.read"), null, expiry, null)).key();

        TestResponse response = platform.get("/api/mcp/session", key);
        assertEquals(200, response.status(), response.body());
        JsonNode session = response.json();
        assertEquals(List.of("contacts.read", "deals.read", "mcp.use"), names(session.path("permissions").path("granted")));
        List<String> allowed = names(session.path("allowedToolNames"));
        assertEquals(Set.of("crm_list_contacts", "crm_search_contacts", "crm_get_contact", "crm_list_deals",
                "crm_get_deal"),
                new TreeSet<>(allowed));
        assertEquals(allowed.size(), session.path("allowedToolCount").asInt());
        int registered = platform.platform().registry().tools().size();
        assertEquals(registered - allowed.size(), session.path("deniedToolCount").asInt());
        assertEquals(expiry, Instant.parse(session.path("key").path("expiresAt").asText()));
        assertEquals(ws.toString(), session.path("workspaceId").asText());
        assertTrue(session.path("permissions").path("toolAllowList").isNull());
        assertEquals(List.of("2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"),
                names(session.path("protocol").path("versions")));
    }

    @Test
    void theSessionShowsTheRemainingMcpBudgetWhichRestCallsDoNotSpend(TestPlatform platform) {
        UUID ws = platform.createWorkspace("budget");
        String key = platform.fullAccessKey(ws);
        JsonNode first = platform.get("/api/mcp/session", key).json().path("rateLimit");
        assertEquals(120, first.path("limit").asInt());
        assertEquals(119, first.path("remaining").asInt());
        assertEquals(200, platform.get("/api/v1/projects", key).status());
        TestResponse second = platform.get("/api/mcp/session", key);
        int remaining = second.json().path("rateLimit").path("remaining").asInt();
        assertTrue(remaining == 118 || remaining == 119, "the REST call spent nothing of the MCP budget: " + remaining);
        assertTrue(second.header("RateLimit-Policy").orElseThrow().startsWith("\"mcp\";q=120"));
    }

    @Test
    void theDefaultListOmitsDeniedToolsAndIncludeDeniedMarksThemWithTheReason(TestPlatform platform) {
        UUID ws = platform.createWorkspace("list");
        String key = platform.key(ws, "mcp.use", "projects.read");

        JsonNode byDefault = platform.get("/api/mcp/tools/list", key).json();
        assertEquals(Set.of("projects_list", "projects_get", "projects_cycle_get"),
                new TreeSet<>(names(byDefault.path("tools"))));
        byDefault.path("tools").forEach(t -> {
            assertTrue(t.path("allowed").asBoolean());
            assertFalse(t.has("denied"));
            assertFalse(t.has("inputSchema"), "schemas only on request");
        });

        JsonNode all = platform.get("/api/mcp/tools/list?includeDenied=true", key).json();
        assertEquals(platform.platform().registry().tools().size(), all.path("tools").size());
        JsonNode create = find(all.path("tools"), "projects_create");
        assertFalse(create.path("allowed").asBoolean());
        assertEquals("missing_scope", create.path("denied").path("reason").asText());
        assertTrue(create.path("denied").path("message").asText().contains("projects.write"));
        assertEquals("projects.write", create.path("scope").asText());
        assertEquals("projects", create.path("module").asText());
        assertEquals(3, all.path("allowedToolCount").asInt());
        assertEquals(all.path("tools").size() - 3, all.path("deniedToolCount").asInt());
    }

    @Test
    void includeSchemasAddsEachToolsInputAndOutputSchema(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("schemas"));
        JsonNode tools = platform.get("/api/mcp/tools/list?includeSchemas=true", key).json().path("tools");
        var registry = platform.platform().registry();
        for (JsonNode tool : tools) {
            var descriptor = registry.tool(tool.path("name").asText()).orElseThrow().descriptor();
            assertEquals(descriptor.inputSchema(), tool.path("inputSchema"), tool.path("name").asText());
            assertEquals(descriptor.outputSchema(), tool.path("outputSchema"), tool.path("name").asText());
        }
        TestResponse bad = platform.get("/api/mcp/tools/list?includeSchemas=yes", key);
        assertEquals(400, bad.status(), bad.body());
        assertEquals(400, platform.get("/api/mcp/tools/list?per_page=5", key).status());
    }

    @Test
    void aReadToolAndAWriteToolAnswerDataAndTheEntitiesTheyTouched(TestPlatform platform) {
        UUID ws = platform.createWorkspace("call");
        String key = platform.fullAccessKey(ws);
        TestResponse created = platform.post("/api/mcp/tools/call", key,
                "{\"name\":\"crm_create_contact\",\"arguments\":{\"email\":\"ada@example.com\",\"first_name\":\"Ada\"}}");
        assertEquals(200, created.status(), created.body());
        String id = created.json().path("data").path("id").asText();
        assertEquals("ada@example.com", created.json().path("data").path("email").asText());
        JsonNode entity = created.json().path("entities").get(0);
        assertEquals("contact", entity.path("type").asText());
        assertEquals(id, entity.path("id").asText());
        assertEquals("created", entity.path("action").asText());

        TestResponse listed = platform.post("/api/mcp/tools/call", key, "{\"name\":\"crm_list_contacts\"}");
        assertEquals(200, listed.status(), listed.body());
        assertEquals(id, listed.json().path("data").path("items").get(0).path("id").asText());
        assertTrue(listed.json().path("entities").isArray());

        TestResponse viaRest = platform.get("/api/v1/crm/contacts", key);
        assertEquals(id, viaRest.data().get(0).path("id").asText(), "the tool's write is committed: " + viaRest.body());
    }

    @Test
    void anUnknownToolIs404AndADeniedToolIs403WithADifferentCode(TestPlatform platform) {
        UUID ws = platform.createWorkspace("errors");
        String key = platform.key(ws, "mcp.use", "contacts.read");
        TestResponse unknown = platform.post("/api/mcp/tools/call", key, "{\"name\":\"crm_no_such_tool\",\"arguments\":{}}");
        assertEquals(404, unknown.status(), unknown.body());
        assertEquals("unknown_tool", unknown.json().path("code").asText());

        TestResponse denied = platform.post("/api/mcp/tools/call", key,
                "{\"name\":\"crm_create_contact\",\"arguments\":{\"email\":\"x@example.com\"}}");
        assertEquals(403, denied.status(), denied.body());
        assertEquals("tool_denied", denied.json().path("code").asText());
        assertNotEquals(unknown.json().path("code"), denied.json().path("code"));
        assertEquals("/name", denied.json().path("errors").get(0).path("pointer").asText());
        assertEquals("missing_scope", denied.json().path("errors").get(0).path("rule").asText());
        assertEquals(0L, (long) platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM crm.contacts WHERE workspace_id = :ws").bind("ws", ws).mapTo(Long.class).one()));
    }

    @Test
    void argumentsThatBreakTheToolsSchemaAre422NamingEachField(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("invalid"));
        TestResponse missing = platform.post("/api/mcp/tools/call", key,
                "{\"name\":\"crm_create_contact\",\"arguments\":{\"first_name\":\"NoEmail\"}}");
        assertEquals(422, missing.status(), missing.body());
        assertEquals("validation_failed", missing.json().path("code").asText());
        assertEquals("/arguments/email", missing.json().path("errors").get(0).path("pointer").asText());
        assertEquals("required", missing.json().path("errors").get(0).path("rule").asText());

        TestResponse restName = platform.post("/api/mcp/tools/call", key,
                "{\"name\":\"crm_create_contact\",\"arguments\":{\"email\":\"a@example.com\",\"firstName\":\"A\"}}");
        assertEquals(422, restName.status(), "tool arguments are not translated from other spellings: " + restName.body());
        assertEquals("/arguments/firstName", restName.json().path("errors").get(0).path("pointer").asText());

        TestResponse badUuid = platform.post("/api/mcp/tools/call", key,
                "{\"name\":\"crm_get_deal\",\"arguments\":{\"id\":\"not-a-uuid\"}}");
        assertEquals(422, badUuid.status(), badUuid.body());
        assertEquals("/arguments/id", badUuid.json().path("errors").get(0).path("pointer").asText());
    }

    @Test
    void aMalformedCallBodyIsRejectedBeforeAnyToolRuns(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("body"));
        TestResponse noName = platform.post("/api/mcp/tools/call", key, "{\"arguments\":{}}");
        assertEquals(422, noName.status(), noName.body());
        assertEquals("/name", noName.json().path("errors").get(0).path("pointer").asText());
        TestResponse extra = platform.post("/api/mcp/tools/call", key, "{\"name\":\"crm_list_contacts\",\"tool\":\"x\"}");
        assertEquals(422, extra.status(), extra.body());
        TestResponse notJson = platform.post("/api/mcp/tools/call", key, "{\"name\":");
        assertEquals(400, notJson.status(), notJson.body());
        assertEquals("invalid_json", notJson.json().path("code").asText());
        TestResponse argsNotObject = platform.post("/api/mcp/tools/call", key, "{\"name\":\"crm_list_contacts\",\"arguments\":[1]}");
        assertEquals(422, argsNotObject.status(), argsNotObject.body());
        assertEquals("/arguments", argsNotObject.json().path("errors").get(0).path("pointer").asText());
    }

    @Test
    void everyContractEndpointIs401WithAChallengeWithoutAKey(TestPlatform platform) {
        for (TestResponse response : List.of(platform.get("/api/mcp/session", null),
                platform.get("/api/mcp/tools/list", null),
                platform.post("/api/mcp/tools/call", null, "{\"name\":\"crm_list_contacts\"}"),
                platform.post("/api/mcp/tools/call", "lnp_definitelyNotAKeyOfThisPlatform0123456789", "{\"name\":\"x\"}"))) {
            assertEquals(401, response.status(), response.body());
            assertTrue(response.header("WWW-Authenticate").orElseThrow().startsWith("Bearer realm=\"lnp\""));
        }
    }

    @Test
    void aKeyWithoutMcpUseOrAnyToolsScopeCannotUseTheMcpSurfaceButAReadOnlyPresetKeyCan(TestPlatform platform) {
        UUID ws = platform.createWorkspace("use");
        String restOnly = platform.key(ws, "webhooks.read");
        TestResponse refused = platform.get("/api/mcp/session", restOnly);
        assertEquals(403, refused.status(), refused.body());
        assertEquals("missing_scope", refused.json().path("code").asText());

        String readOnly = McpFixtures.readOnlyPresetKey(platform, ws);
        JsonNode session = platform.get("/api/mcp/session", readOnly).json();
        List<String> allowed = names(session.path("allowedToolNames"));
        assertTrue(allowed.contains("crm_list_contacts") && allowed.contains("issues_list"), allowed.toString());
        var registry = platform.platform().registry();
        allowed.forEach(t -> assertTrue(registry.tool(t).orElseThrow().descriptor().annotations().readOnly(), t));
    }

    @Test
    void theMcpRateLimitAnswers429WithRetryAfterOnEveryMcpEndpoint(TestPlatform platform) {
        UUID ws = platform.createWorkspace("limited");
        String key = platform.fullAccessKey(ws);
        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.connections SET mcp_per_minute = 3 WHERE id = ?",
                McpFixtures.connectionOf(platform, key)));
        awayFromTheMinutesEnd();
        assertEquals(200, platform.get("/api/mcp/session", key).status());
        assertEquals(200, platform.get("/api/mcp/tools/list", key).status());
        assertEquals(200, platform.post("/api/mcp/tools/call", key, "{\"name\":\"projects_list\"}").status());
        for (TestResponse limited : List.of(platform.post("/api/mcp/tools/call", key, "{\"name\":\"projects_list\"}"),
                McpFixtures.rpc(platform, key, McpFixtures.LATEST, "ping", null))) {
            assertEquals(429, limited.status(), limited.body());
            assertEquals("rate_limited", limited.json().path("code").asText());
            long retryAfter = Long.parseLong(limited.header("Retry-After").orElseThrow());
            assertTrue(retryAfter >= 1 && retryAfter <= 60, "Retry-After " + retryAfter);
        }
        assertEquals(200, platform.get("/api/v1/projects", key).status(), "REST has its own budget");
    }

    @Test
    void aToolCallTakesTheToolsMonthlyQuotaAndGivesItBackWhenItFails(TestPlatform platform) {
        UUID ws = platform.createWorkspace("quota");
        String key = platform.fullAccessKey(ws);
        platform.setQuota(ws, "crm", 1);
        TestResponse invalid = platform.post("/api/mcp/tools/call", key,
                "{\"name\":\"crm_update_contact\",\"arguments\":{\"id\":\"" + UUID.randomUUID() + "\",\"first_name\":\"X\"}}");
        assertEquals(404, invalid.status(), "a failed call gives its unit back: " + invalid.body());
        assertEquals(200, platform.post("/api/mcp/tools/call", key,
                "{\"name\":\"crm_create_contact\",\"arguments\":{\"email\":\"one@example.com\"}}").status());
        TestResponse over = platform.post("/api/mcp/tools/call", key,
                "{\"name\":\"crm_create_contact\",\"arguments\":{\"email\":\"two@example.com\"}}");
        assertEquals(429, over.status(), over.body());
        assertEquals("quota_exceeded", over.json().path("code").asText());
        assertTrue(over.header("Retry-After").isPresent());
        assertEquals(200, platform.post("/api/mcp/tools/call", key, "{\"name\":\"crm_list_contacts\"}").status(),
                "read tools take no quota");
    }

    @Test
    void anIdempotencyKeyIsRefusedBecauseTheToolCommitsInATransactionOfItsOwn(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("idem"));
        TestResponse refused = platform.send("POST", "/api/mcp/tools/call", key,
                "{\"name\":\"projects_create\",\"arguments\":{\"name\":\"Once\"}}", Map.of("Idempotency-Key", "k-1"));
        assertEquals(400, refused.status(), refused.body());
        assertEquals("idempotency_not_supported", refused.json().path("code").asText());
        assertEquals(0, platform.post("/api/mcp/tools/call", key, "{\"name\":\"projects_list\"}").json()
                .path("data").path("items").size(), "nothing ran");
    }

    static JsonNode find(JsonNode tools, String name) {
        for (JsonNode t : tools) {
            if (t.path("name").asText().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("no tool " + name + " in " + tools);
    }

    /** Keeps a limit test inside one fixed minute window. */
    static void awayFromTheMinutesEnd() {
        int second = java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).getSecond();
        if (second > 50) {
            try {
                Thread.sleep((61 - second) * 1000L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
