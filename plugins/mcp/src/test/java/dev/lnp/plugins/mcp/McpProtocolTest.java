package dev.lnp.plugins.mcp;

import static dev.lnp.plugins.mcp.McpFixtures.LATEST;
import static dev.lnp.plugins.mcp.McpFixtures.result;
import static dev.lnp.plugins.mcp.McpFixtures.rpc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.json.validation.BodyValidator;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** MCP over Streamable HTTP at POST /api/mcp, spoken by hand to check every rule of the transport and methods. */
@PlatformTest(plugins = {"mcp", "crm", "projects", "issues"},
        config = {"lnp.mcp.page_size=4", "lnp.mcp.allowed_origins=https://agent.example.com",
                "lnp.base.url=https://workspace.example.com/"})
class McpProtocolTest {

    @Test
    void initializeNegotiatesTheVersionAndDeclaresTools(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("init"));
        for (String version : List.of("2025-11-25", "2025-06-18", "2025-03-26")) {
            TestResponse response = rpc(platform, key, null, "initialize", "{\"protocolVersion\":\"" + version
                    + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}");
            assertEquals("application/json", response.header("Content-Type").orElseThrow());
            assertFalse(response.header("Mcp-Session-Id").isPresent(), "a stateless server assigns no session");
            JsonNode result = result(response);
            assertEquals(version, result.path("protocolVersion").asText());
            assertTrue(result.path("capabilities").has("tools"));
            assertEquals("lnp-platform", result.path("serverInfo").path("name").asText());
        }
        JsonNode older = result(rpc(platform, key, null, "initialize", "{\"protocolVersion\":\"2024-11-05\"}"));
        assertEquals(LATEST, older.path("protocolVersion").asText(), "an unserved version gets the newest one");
        TestResponse noVersion = rpc(platform, key, null, "initialize", "{}");
        assertEquals(-32602, noVersion.json().path("error").path("code").asInt(), noVersion.body());
    }

    @Test
    void notificationsAndResponsesAreAcceptedWith202AndNoBody(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("notify"));
        TestResponse initialized = McpFixtures.post(platform, key, LATEST, McpFixtures.request(null, "notifications/initialized", null));
        assertEquals(202, initialized.status(), initialized.body());
        assertEquals("", initialized.body());
        TestResponse cancelled = McpFixtures.post(platform, key, LATEST,
                McpFixtures.request(null, "notifications/cancelled", "{\"requestId\":7}"));
        assertEquals(202, cancelled.status());
        TestResponse clientResponse = McpFixtures.post(platform, key, LATEST, "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}");
        assertEquals(202, clientResponse.status());
    }

    @Test
    void pingAnswersAnEmptyResultWithTheRequestsId(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("ping"));
        TestResponse response = McpFixtures.post(platform, key, LATEST, McpFixtures.request("abc", "ping", null));
        assertEquals("abc", response.json().path("id").asText());
        assertEquals(Json.object(), response.json().path("result"));
    }

    @Test
    void toolsListPagesThroughEveryAllowedToolWithACursor(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("pages"));
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonNode result = result(rpc(platform, key, LATEST, "tools/list",
                    cursor == null ? "{}" : "{\"cursor\":\"" + cursor + "\"}"));
            assertTrue(result.path("tools").size() <= 4);
            result.path("tools").forEach(t -> seen.add(t.path("name").asText()));
            cursor = result.has("nextCursor") ? result.path("nextCursor").asText() : null;
            pages++;
        } while (cursor != null && pages < 50);
        Set<String> registered = new LinkedHashSet<>();
        platform.platform().registry().tools().forEach(t -> registered.add(t.descriptor().name()));
        assertEquals(new ArrayList<>(registered), seen, "every tool once, in registry order");
        assertEquals((registered.size() + 3) / 4, pages);

        TestResponse bad = rpc(platform, key, LATEST, "tools/list", "{\"cursor\":\"not-a-cursor\"}");
        assertEquals(200, bad.status());
        assertEquals(-32602, bad.json().path("error").path("code").asInt(), bad.body());
    }

    @Test
    void toolsListDescribesEachToolWithSchemasAndAccurateAnnotations(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("describe"));
        var registry = platform.platform().registry();
        List<JsonNode> tools = allTools(platform, key, LATEST);
        assertEquals(registry.tools().size(), tools.size());
        for (JsonNode tool : tools) {
            String name = tool.path("name").asText();
            var descriptor = registry.tool(name).orElseThrow().descriptor();
            assertEquals(descriptor.title(), tool.path("title").asText());
            assertEquals(descriptor.inputSchema(), tool.path("inputSchema"), name);
            assertEquals(descriptor.outputSchema(), tool.path("outputSchema"), name);
            assertEquals("object", tool.path("outputSchema").path("type").asText(), "MCP output schemas are objects: " + name);
            JsonNode a = tool.path("annotations");
            boolean reads = descriptor.scope().endsWith(".read");
            assertEquals(reads, a.path("readOnlyHint").asBoolean(), name);
            boolean creates = name.contains("create") || name.equals("issues_comment");
            assertEquals(!reads && !creates, a.path("destructiveHint").asBoolean(),
                    "only-additive tools are not destructive, changing or deleting ones are: " + name);
            assertEquals(!creates, a.path("idempotentHint").asBoolean(), name);
            assertFalse(a.path("openWorldHint").asBoolean(), "tools touch only this workspace: " + name);
        }
        for (JsonNode tool : allTools(platform, key, "2025-03-26")) {
            assertFalse(tool.has("outputSchema"), "2025-03-26 has no output schemas");
            assertFalse(tool.has("title"));
            assertTrue(tool.path("annotations").has("title"));
        }
    }

    @Test
    void deniedToolsAreHiddenAndCallingOneIsAJsonRpcErrorNotAnHttp403(TestPlatform platform) {
        String key = platform.key(platform.createWorkspace("hidden"), "mcp.use", "contacts.read");
        Set<String> listed = new TreeSet<>();
        allTools(platform, key, LATEST).forEach(t -> listed.add(t.path("name").asText()));
        assertEquals(Set.of("crm_list_contacts", "crm_search_contacts", "crm_get_contact"), listed);

        TestResponse denied = rpc(platform, key, LATEST, "tools/call",
                "{\"name\":\"crm_create_contact\",\"arguments\":{\"email\":\"x@example.com\"}}");
        assertEquals(200, denied.status(), denied.body());
        assertEquals(-32010, denied.json().path("error").path("code").asInt(), denied.body());
        assertEquals("tool_denied", denied.json().path("error").path("data").path("code").asText());
        assertEquals("missing_scope", denied.json().path("error").path("data").path("reason").asText());

        TestResponse unknown = rpc(platform, key, LATEST, "tools/call", "{\"name\":\"nope_tool\",\"arguments\":{}}");
        assertEquals(200, unknown.status());
        assertEquals(-32602, unknown.json().path("error").path("code").asInt(), unknown.body());
        assertEquals("unknown_tool", unknown.json().path("error").path("data").path("code").asText());
    }

    @Test
    void aCallAnswersStructuredContentMatchingTheOutputSchemaAndTheSameJsonAsText(TestPlatform platform) {
        UUID ws = platform.createWorkspace("structured");
        String key = platform.fullAccessKey(ws);
        var registry = platform.platform().registry();
        JsonNode created = McpFixtures.callTool(platform, key, "projects_create", "{\"name\":\"Apollo\"}");
        assertFalse(created.path("isError").asBoolean());
        JsonNode structured = created.path("structuredContent");
        assertEquals("Apollo", structured.path("name").asText());
        assertEquals(structured, Json.parse(created.path("content").get(0).path("text").asText()));
        assertEquals("text", created.path("content").get(0).path("type").asText());
        JsonNode entity = created.path("_meta").path("dev.lnp/entities").get(0);
        assertEquals(structured.path("id").asText(), entity.path("id").asText());
        assertEquals("created", entity.path("action").asText());

        JsonNode listed = McpFixtures.callTool(platform, key, "projects_list", "{}");
        for (var pair : List.of(Map.entry("projects_create", structured), Map.entry("projects_list", listed.path("structuredContent")))) {
            var schema = registry.tool(pair.getKey()).orElseThrow().descriptor().outputSchema();
            assertEquals(List.of(), BodyValidator.compile("output:" + pair.getKey(), schema).validate(pair.getValue()),
                    pair.getKey());
        }
        JsonNode old = result(rpc(platform, key, "2025-03-26", "tools/call", "{\"name\":\"projects_list\",\"arguments\":{}}"));
        assertFalse(old.has("structuredContent"), "2025-03-26 knows no structured content");
        assertEquals(1, Json.parse(old.path("content").get(0).path("text").asText()).path("items").size());
    }

    @Test
    void badArgumentsAndBusinessErrorsAreToolExecutionErrorsNamingTheField(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("is-error"));
        JsonNode invalid = McpFixtures.callTool(platform, key, "crm_create_contact", "{\"email\":\"nope\",\"shoe\":1}");
        assertTrue(invalid.path("isError").asBoolean());
        String text = invalid.path("content").get(0).path("text").asText();
        assertTrue(text.startsWith("validation_failed"), text);
        assertTrue(text.contains("/email") && text.contains("/shoe"), text);
        assertFalse(invalid.has("structuredContent"));

        JsonNode missing = McpFixtures.callTool(platform, key, "projects_get", "{\"id\":\"" + UUID.randomUUID() + "\"}");
        assertTrue(missing.path("isError").asBoolean());
        assertTrue(missing.path("content").get(0).path("text").asText().startsWith("not_found"), missing.toString());

        TestResponse noName = rpc(platform, key, LATEST, "tools/call", "{\"arguments\":{}}");
        assertEquals(-32602, noName.json().path("error").path("code").asInt(), noName.body());
        TestResponse argsNotObject = rpc(platform, key, LATEST, "tools/call", "{\"name\":\"projects_list\",\"arguments\":[]}");
        assertEquals(-32602, argsNotObject.json().path("error").path("code").asInt());
    }

    @Test
    void withoutAKeyTheEndpointAnswers401WithAChallenge(TestPlatform platform) {
        TestResponse response = rpc(platform, null, LATEST, "tools/list", "{}");
        assertEquals(401, response.status(), response.body());
        assertTrue(response.header("WWW-Authenticate").orElseThrow().startsWith("Bearer realm=\"lnp\""));
        TestResponse badKey = rpc(platform, "lnp_thisIsNotAKeyOfThisPlatformAtAll0000", LATEST, "ping", null);
        assertEquals(401, badKey.status());
        assertTrue(badKey.header("WWW-Authenticate").orElseThrow().contains("invalid_token"));
    }

    @Test
    void aForeignOriginIs403AndAConfiguredOneIsServed(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("origin"));
        String ping = McpFixtures.request(1, "ping", null);
        TestResponse foreign = withHeaders(platform, key, ping, Map.of("Origin", "https://evil.example"));
        assertEquals(403, foreign.status(), foreign.body());
        assertEquals("origin_not_allowed", foreign.json().path("code").asText());
        TestResponse foreignNoKey = withHeaders(platform, null, ping, Map.of("Origin", "http://rebound.example:8080"));
        assertEquals(403, foreignNoKey.status(), "the origin is checked before the key");
        assertEquals(403, withHeaders(platform, key, ping, Map.of("Origin", "null")).status());
        assertEquals(403, platform.send("GET", "/api/mcp/session", key, null, Map.of("Origin", "https://evil.example")).status());
        assertEquals(200, withHeaders(platform, key, ping, Map.of("Origin", "https://agent.example.com")).status());
        assertEquals(200, withHeaders(platform, key, ping, Map.of("Origin", "https://AGENT.example.com:443")).status());
        assertEquals(200, withHeaders(platform, key, ping, Map.of("Origin", "https://workspace.example.com")).status(),
                "the base URL's own origin");
        assertEquals(200, platform.get("/api/v1/projects", key).status(), "REST is not an MCP surface");
    }

    @Test
    void anUnsupportedProtocolVersionHeaderIs400(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("version"));
        for (String version : List.of("1900-01-01", "not-a-version", "2024-11-05")) {
            TestResponse response = rpc(platform, key, version, "ping", null);
            assertEquals(400, response.status(), version + ": " + response.body());
            assertTrue(response.json().path("error").path("data").path("supported").isArray());
            assertEquals(-32022, response.json().path("error").path("code").asInt(), "UnsupportedProtocolVersion");
        }
        assertEquals(200, rpc(platform, key, "2025-06-18", "ping", null).status());
        assertEquals(200, rpc(platform, key, null, "ping", null).status(), "no header: 2025-03-26 is assumed");
    }

    @Test
    void getAndDeleteAre405BecauseTheServerHasNoStreamAndNoSessions(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("methods"));
        for (String method : List.of("GET", "DELETE")) {
            TestResponse response = platform.send(method, "/api/mcp", key, null,
                    Map.of("Accept", "text/event-stream", "Mcp-Session-Id", "anything"));
            assertEquals(405, response.status(), method + ": " + response.body());
            assertEquals("POST", response.header("Allow").orElseThrow());
        }
    }

    @Test
    void batchesAreServedOnlyFor20250326(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("batch"));
        String batch = "[" + McpFixtures.request(1, "ping", null) + "," + McpFixtures.request(null, "notifications/initialized", null)
                + "," + McpFixtures.request(2, "tools/list", "{}") + ",{\"id\":3}]";
        TestResponse old = McpFixtures.post(platform, key, "2025-03-26", batch);
        assertEquals(200, old.status(), old.body());
        JsonNode responses = old.json();
        assertEquals(3, responses.size(), "two requests and one invalid message answer; the notification does not");
        assertEquals(1, responses.get(0).path("id").asInt());
        assertTrue(responses.get(1).path("result").path("tools").isArray());
        assertEquals(-32600, responses.get(2).path("error").path("code").asInt());
        TestResponse onlyNotifications = McpFixtures.post(platform, key, "2025-03-26",
                "[" + McpFixtures.request(null, "notifications/initialized", null) + "]");
        assertEquals(202, onlyNotifications.status());
        TestResponse current = McpFixtures.post(platform, key, LATEST, "[" + McpFixtures.request(1, "ping", null) + "]");
        assertEquals(400, current.status(), current.body());
        assertEquals(-32600, current.json().path("error").path("code").asInt());
    }

    @Test
    void malformedMessagesGetJsonRpcErrors(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("malformed"));
        TestResponse parse = McpFixtures.post(platform, key, LATEST, "{\"jsonrpc\":");
        assertEquals(400, parse.status());
        assertEquals(-32700, parse.json().path("error").path("code").asInt());
        assertFalse(parse.json().has("id"), "an error without a readable request id carries none (not null)");
        TestResponse noVersion = McpFixtures.post(platform, key, LATEST, "{\"id\":1,\"method\":\"ping\"}");
        assertEquals(400, noVersion.status());
        assertEquals(-32600, noVersion.json().path("error").path("code").asInt());
        assertEquals(1, noVersion.json().path("id").asInt());
        TestResponse unknownMethod = rpc(platform, key, LATEST, "resources/list", "{}");
        assertEquals(200, unknownMethod.status());
        assertEquals(-32601, unknownMethod.json().path("error").path("code").asInt());
        TestResponse notJson = platform.send("POST", "/api/mcp", key, "ping", Map.of("Content-Type", "text/plain",
                "Accept", "application/json, text/event-stream"));
        assertEquals(415, notJson.status());
        TestResponse htmlOnly = platform.send("POST", "/api/mcp", key, McpFixtures.request(1, "ping", null),
                Map.of("Accept", "text/html"));
        assertEquals(406, htmlOnly.status());
        TestResponse empty = platform.send("POST", "/api/mcp", key, "", Map.of("Content-Type", "application/json"));
        assertEquals(400, empty.status(), empty.body());
    }

    @Test
    void aKeyWithoutMcpUseOrAnyToolsScopeIsRefusedAtTheHttpLevel(TestPlatform platform) {
        String key = platform.key(platform.createWorkspace("no-use"), "webhooks.read");
        TestResponse response = rpc(platform, key, LATEST, "ping", null);
        assertEquals(403, response.status(), response.body());
        assertEquals("missing_scope", response.json().path("code").asText());
    }

    private static TestResponse withHeaders(TestPlatform platform, String key, String body, Map<String, String> extra) {
        Map<String, String> headers = new HashMap<>(extra);
        headers.put("Accept", "application/json, text/event-stream");
        headers.put("MCP-Protocol-Version", LATEST);
        return platform.send("POST", "/api/mcp", key, body, headers);
    }

    private static List<JsonNode> allTools(TestPlatform platform, String key, String version) {
        List<JsonNode> tools = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode result = result(rpc(platform, key, version, "tools/list",
                    cursor == null ? "{}" : "{\"cursor\":\"" + cursor + "\"}"));
            result.path("tools").forEach(tools::add);
            cursor = result.has("nextCursor") ? result.path("nextCursor").asText() : null;
        } while (cursor != null);
        return tools;
    }
}
