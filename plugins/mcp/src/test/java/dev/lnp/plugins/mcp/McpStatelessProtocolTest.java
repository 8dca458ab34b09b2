package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * MCP 2026-07-28 at POST /api/mcp, spoken by hand over real HTTP: no handshake, {@code _meta} on every request,
 * the routing headers checked against the body, {@code resultType}, caching hints and 404 for methods outside the
 * revision. The 2025 revisions keep answering on the same endpoint ({@link McpProtocolTest}).
 */
@PlatformTest(plugins = {"mcp", "crm", "projects", "issues"}, config = {"lnp.mcp.page_size=4"})
class McpStatelessProtocolTest {

    private static final String V = "2026-07-28";
    private static final String VERSION = "io.modelcontextprotocol/protocolVersion";
    private static final String CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    private static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";

    @Test
    void discoverListsEveryRevisionTheToolsCapabilityAndTheServersIdentity(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("discover"));
        TestResponse response = send(platform, key, request(7, "server/discover", Json.object()));
        assertEquals(200, response.status(), response.body());
        assertFalse(response.header("Mcp-Session-Id").isPresent(), "no sessions in 2026-07-28");
        assertEquals(7, response.json().path("id").asInt());
        JsonNode result = response.json().path("result");
        assertEquals("complete", result.path("resultType").asText());
        assertEquals(List.of("2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"), strings(result.path("supportedVersions")));
        assertEquals(Json.parse("{\"tools\":{\"listChanged\":false}}"), result.path("capabilities"));
        assertEquals("lnp-platform", result.path("_meta").path(SERVER_INFO).path("name").asText());
        assertTrue(result.path("_meta").path(SERVER_INFO).path("version").isTextual());
        assertEquals("public", result.path("cacheScope").asText(), "the same answer for every key");
        assertTrue(result.path("ttlMs").asLong() > 0);
        assertTrue(result.path("instructions").asText().contains("API key"));
    }

    @Test
    void toolsListPagesCarryResultTypeAndPrivateCachingHintsAndMatchThe2025List(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("list"));
        List<JsonNode> tools = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            ObjectNode params = Json.object();
            if (cursor != null) {
                params.put("cursor", cursor);
            }
            TestResponse response = send(platform, key, request(1, "tools/list", params));
            JsonNode result = result(response);
            assertEquals("complete", result.path("resultType").asText());
            assertEquals("private", result.path("cacheScope").asText(), "the list depends on the key");
            assertEquals(60_000, result.path("ttlMs").asLong());
            assertEquals("lnp-platform", result.path("_meta").path(SERVER_INFO).path("name").asText());
            result.path("tools").forEach(tools::add);
            cursor = result.has("nextCursor") ? result.path("nextCursor").asText() : null;
            pages++;
        } while (cursor != null && pages < 20);
        assertTrue(pages > 1, "page size 4 spreads the tools over pages");
        List<JsonNode> legacy = new ArrayList<>();
        String legacyCursor = null;
        do {
            JsonNode result = McpFixtures.result(McpFixtures.rpc(platform, key, McpFixtures.LATEST, "tools/list",
                    legacyCursor == null ? "{}" : "{\"cursor\":\"" + legacyCursor + "\"}"));
            result.path("tools").forEach(legacy::add);
            legacyCursor = result.has("nextCursor") ? result.path("nextCursor").asText() : null;
        } while (legacyCursor != null);
        assertEquals(legacy, tools, "the same tools, titles, schemas and annotations as 2025-11-25");
    }

    @Test
    void toolsCallAnswersACompleteResultAndKeepsTheErrorsOf2025(TestPlatform platform) {
        String key = platform.key(platform.createWorkspace("call"), "mcp.use", "projects.read", "projects.write");
        JsonNode created = result(send(platform, key, call(1, "projects_create", "{\"name\":\"Apollo\"}")));
        assertEquals("complete", created.path("resultType").asText());
        assertFalse(created.path("isError").asBoolean());
        assertEquals("Apollo", created.path("structuredContent").path("name").asText());
        assertEquals("created", created.path("_meta").path("dev.lnp/entities").get(0).path("action").asText());
        assertEquals("lnp-platform", created.path("_meta").path(SERVER_INFO).path("name").asText());
        assertFalse(created.has("ttlMs"), "a call result is not cacheable");

        JsonNode invalid = result(send(platform, key, call(2, "projects_create", "{\"name\":7}")));
        assertEquals("complete", invalid.path("resultType").asText());
        assertTrue(invalid.path("isError").asBoolean());
        assertTrue(invalid.path("content").get(0).path("text").asText().contains("/name"), invalid.toString());

        TestResponse denied = send(platform, key, call(3, "crm_create_contact", "{\"email\":\"a@example.com\"}"));
        assertEquals(200, denied.status(), denied.body());
        assertEquals(-32010, denied.json().path("error").path("code").asInt());
        assertEquals("tool_denied", denied.json().path("error").path("data").path("code").asText());
        TestResponse unknown = send(platform, key, call(4, "nope_tool", "{}"));
        assertEquals(200, unknown.status());
        assertEquals(-32602, unknown.json().path("error").path("code").asInt());
        assertEquals(4, unknown.json().path("id").asInt());
    }

    @Test
    void everyRequestCarriesItsVersionAndCapabilitiesInMetaElse400InvalidParams(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("meta"));
        ObjectNode noMeta = message(11, "server/discover", Json.object());
        ObjectNode noVersion = request(12, "server/discover", Json.object());
        meta(noVersion).remove(VERSION);
        ObjectNode noCapabilities = request(13, "server/discover", Json.object());
        meta(noCapabilities).remove(CAPABILITIES);
        ObjectNode capabilitiesNotObject = request(14, "server/discover", Json.object());
        meta(capabilitiesNotObject).put(CAPABILITIES, "all");
        ObjectNode metaNotObject = message(15, "tools/list", Json.object().put("_meta", "x"));
        for (ObjectNode bad : List.of(noMeta, noVersion, noCapabilities, capabilitiesNotObject, metaNotObject)) {
            TestResponse response = send(platform, key, bad);
            assertEquals(400, response.status(), bad + " -> " + response.body());
            assertEquals(-32602, response.json().path("error").path("code").asInt(), response.body());
            assertEquals(bad.path("id").asInt(), response.json().path("id").asInt(), "errors keep the request's id");
        }
        ObjectNode withoutClientInfo = request(16, "server/discover", Json.object());
        meta(withoutClientInfo).remove("io.modelcontextprotocol/clientInfo");
        assertEquals(200, send(platform, key, withoutClientInfo).status(), "clientInfo is optional");

        ObjectNode otherVersion = request(17, "server/discover", Json.object());
        meta(otherVersion).put(VERSION, "2025-11-25");
        TestResponse mismatch = send(platform, key, otherVersion);
        assertEquals(400, mismatch.status(), mismatch.body());
        assertEquals(-32020, mismatch.json().path("error").path("code").asInt(), "the header and _meta differ");
        assertEquals(17, mismatch.json().path("id").asInt());
    }

    @Test
    void theMcpMethodHeaderMustMatchTheBodyElse400HeaderMismatch(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("method-header"));
        ObjectNode list = request(21, "tools/list", Json.object());
        assertHeaderMismatch(send(platform, key, list, Map.of()), 21, "missing");
        assertHeaderMismatch(send(platform, key, list, Map.of("Mcp-Method", "prompts/list")), 21, "different");
        assertHeaderMismatch(send(platform, key, list, Map.of("Mcp-Method", "TOOLS/LIST")), 21,
                "values are case-sensitive");
        assertEquals(200, send(platform, key, list, Map.of("mcp-method", "tools/list")).status(),
                "header names are not case-sensitive");
        assertEquals(200, send(platform, key, list, Map.of("Mcp-Method", "  tools/list ")).status(),
                "whitespace around a value is not part of it");
        TestResponse twice = sendRaw(platform, key, list, List.of("Mcp-Method", "tools/list", "Mcp-Method", "tools/list"));
        assertHeaderMismatch(twice, 21, "sent twice");
    }

    @Test
    void theMcpNameHeaderOfAToolCallMustMatchItsNamePlainOrBase64(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("name-header"));
        ObjectNode call = call(31, "projects_list", "{}");
        assertHeaderMismatch(send(platform, key, call, Map.of("Mcp-Method", "tools/call")), 31, "missing");
        assertHeaderMismatch(send(platform, key, call, Map.of("Mcp-Method", "tools/call", "Mcp-Name", "projects_get")),
                31, "another tool");
        assertHeaderMismatch(send(platform, key, call, Map.of("Mcp-Method", "tools/call",
                "Mcp-Name", "=?base64?not base64!?=")), 31, "undecodable Base64");
        String encoded = "=?base64?" + Base64.getEncoder().encodeToString("projects_list".getBytes(StandardCharsets.UTF_8))
                + "?=";
        TestResponse base64 = send(platform, key, call, Map.of("Mcp-Method", "tools/call", "Mcp-Name", encoded));
        assertEquals("complete", result(base64).path("resultType").asText());
        TestResponse padded = send(platform, key, call, Map.of("Mcp-Method", "tools/call", "Mcp-Name", " projects_list  "));
        assertEquals(200, padded.status(), padded.body());
    }

    @Test
    void methodsOutside2026AreNotFoundWith404(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("not-found"));
        int id = 40;
        for (String method : List.of("initialize", "ping", "logging/setLevel", "resources/list", "prompts/list",
                "subscriptions/listen", "unknown/method")) {
            TestResponse response = send(platform, key, request(++id, method, Json.object()));
            assertEquals(404, response.status(), method + ": " + response.body());
            assertEquals(-32601, response.json().path("error").path("code").asInt(), method);
            assertEquals(id, response.json().path("id").asInt(), method);
        }
    }

    @Test
    void anUnsupportedVersionIs400WithTheSupportedListAndTheRequestsId(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("unsupported"));
        for (String version : List.of("1900-01-01", "v999.0.0", "2024-11-05")) {
            ObjectNode discover = request(51, "server/discover", Json.object());
            meta(discover).put(VERSION, version);
            TestResponse response = send(platform, key, discover, Map.of("MCP-Protocol-Version", version,
                    "Mcp-Method", "server/discover"));
            assertEquals(400, response.status(), version + ": " + response.body());
            JsonNode error = response.json().path("error");
            assertEquals(-32022, error.path("code").asInt());
            assertEquals(version, error.path("data").path("requested").asText());
            assertTrue(strings(error.path("data").path("supported")).contains(V));
            assertEquals(51, response.json().path("id").asInt());
        }
        TestResponse twice = sendRaw(platform, key, request(52, "server/discover", Json.object()),
                List.of("MCP-Protocol-Version", V, "MCP-Protocol-Version", V, "Mcp-Method", "server/discover"));
        assertEquals(400, twice.status(), twice.body());
        assertEquals(-32020, twice.json().path("error").path("code").asInt());
    }

    @Test
    void notificationsAreAcceptedButBatchesClientResponsesAndInvalidMessagesAreNot(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("shapes"));
        ObjectNode notification = request(null, "notifications/cancelled", Json.object().put("requestId", 3));
        TestResponse accepted = send(platform, key, notification, Map.of("Mcp-Method", "notifications/cancelled"));
        assertEquals(202, accepted.status());
        assertEquals("", accepted.body());
        TestResponse batch = send(platform, key, Json.mapper().createArrayNode().add(request(1, "tools/list", Json.object())),
                Map.of("Mcp-Method", "tools/list"));
        assertEquals(400, batch.status(), batch.body());
        assertEquals(-32600, batch.json().path("error").path("code").asInt());
        TestResponse response = send(platform, key, Json.parse("{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}"), Map.of());
        assertEquals(400, response.status(), response.body());
        assertEquals(-32600, response.json().path("error").path("code").asInt());
        assertEquals(9, response.json().path("id").asInt());
        TestResponse notJsonRpc = send(platform, key, Json.parse("{\"id\":5,\"method\":\"tools/list\"}"),
                Map.of("Mcp-Method", "tools/list"));
        assertEquals(400, notJsonRpc.status(), notJsonRpc.body());
        assertEquals(-32600, notJsonRpc.json().path("error").path("code").asInt(), "no \"jsonrpc\": \"2.0\"");
        assertEquals(5, notJsonRpc.json().path("id").asInt());
    }

    @Test
    void anInitializeAskingFor2026GetsTheNewestHandshakeRevision(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("handshake"));
        JsonNode result = McpFixtures.result(McpFixtures.rpc(platform, key, null, "initialize",
                "{\"protocolVersion\":\"2026-07-28\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}"));
        assertEquals("2025-11-25", result.path("protocolVersion").asText(), "2026-07-28 has no handshake");
        assertFalse(result.has("resultType"), "2025 results are unchanged");
    }

    // ---- requests as a 2026-07-28 client sends them ----

    private static ObjectNode message(Integer id, String method, ObjectNode params) {
        ObjectNode message = Json.object().put("jsonrpc", "2.0").put("method", method);
        if (id != null) {
            message.put("id", id);
        }
        message.set("params", params);
        return message;
    }

    /** A request with the per-request {@code _meta} fields every 2026-07-28 request carries. */
    private static ObjectNode request(Integer id, String method, ObjectNode params) {
        ObjectNode meta = params.putObject("_meta");
        meta.put(VERSION, V);
        meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "test").put("version", "1");
        meta.putObject(CAPABILITIES);
        return message(id, method, params);
    }

    private static ObjectNode call(int id, String tool, String argumentsJson) {
        ObjectNode params = Json.object().put("name", tool);
        params.set("arguments", Json.parse(argumentsJson));
        return request(id, "tools/call", params);
    }

    private static ObjectNode meta(ObjectNode request) {
        return (ObjectNode) request.get("params").get("_meta");
    }

    /** POSTs {@code message} with the headers a client derives from it: version, method and (for calls) name. */
    private static TestResponse send(TestPlatform platform, String key, ObjectNode message) {
        Map<String, String> headers = new HashMap<>();
        headers.put("Mcp-Method", message.path("method").asText());
        if (message.path("params").has("name")) {
            headers.put("Mcp-Name", message.path("params").path("name").asText());
        }
        return send(platform, key, message, headers);
    }

    /** POSTs {@code body} with exactly the routing headers given (the version header unless given). */
    private static TestResponse send(TestPlatform platform, String key, JsonNode body, Map<String, String> routing) {
        Map<String, String> headers = new HashMap<>(routing);
        headers.put("Accept", "application/json, text/event-stream");
        headers.putIfAbsent("MCP-Protocol-Version", V);
        return platform.send("POST", "/api/mcp", key, body.toString(), headers);
    }

    /** POSTs with headers that may repeat (name, value, name, value, …), which a map cannot express. */
    private static TestResponse sendRaw(TestPlatform platform, String key, ObjectNode body, List<String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(platform.uri("/api/mcp"))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        boolean versionGiven = false;
        for (int i = 0; i < headers.size(); i += 2) {
            request.header(headers.get(i), headers.get(i + 1));
            versionGiven |= headers.get(i).equalsIgnoreCase("MCP-Protocol-Version");
        }
        if (!versionGiven) {
            request.header("MCP-Protocol-Version", V);
        }
        try {
            HttpResponse<String> response = platform.http().send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new TestResponse(response.statusCode(), response.headers(), response.body());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode result(TestResponse response) {
        if (response.status() != 200 || !response.json().has("result")) {
            throw new AssertionError("expected a JSON-RPC result, got " + response);
        }
        return response.json().get("result");
    }

    private static void assertHeaderMismatch(TestResponse response, int id, String why) {
        assertEquals(400, response.status(), why + ": " + response.body());
        assertEquals(-32020, response.json().path("error").path("code").asInt(), why + ": " + response.body());
        assertEquals(id, response.json().path("id").asInt(), why);
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }
}
