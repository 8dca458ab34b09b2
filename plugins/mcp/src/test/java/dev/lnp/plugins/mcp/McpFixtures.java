package dev.lnp.plugins.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.core.auth.Connections;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Keys, connection settings and JSON-RPC requests for the MCP tests, all over real HTTP. */
final class McpFixtures {

    static final String[] PLUGINS = {"mcp", "crm", "projects", "issues"};
    static final String LATEST = "2025-11-25";

    private McpFixtures() {
    }

    static UUID connectionOf(TestPlatform platform, String key) {
        return platform.principal(key).connectionId();
    }

    static void toolPolicy(TestPlatform platform, String key, List<String> allow, List<String> deny, boolean readOnly) {
        platform.connections().setToolPolicy(connectionOf(platform, key), allow, deny, readOnly);
    }

    static String readOnlyPresetKey(TestPlatform platform, UUID ws) {
        return platform.connections().create(new Connections.NewConnection(ws, "ro", List.of(), "read-only", null,
                null)).key();
    }

    /** A JSON-RPC request over POST /api/mcp with the headers an MCP client of {@code version} sends. */
    static TestResponse rpc(TestPlatform platform, String key, String version, String method, String paramsJson) {
        return post(platform, key, version, request(1, method, paramsJson));
    }

    static String request(Object id, String method, String paramsJson) {
        var message = Json.object().put("jsonrpc", "2.0").put("method", method);
        if (id instanceof Integer i) {
            message.put("id", i);
        } else if (id != null) {
            message.put("id", id.toString());
        }
        if (paramsJson != null) {
            message.set("params", Json.parse(paramsJson));
        }
        return message.toString();
    }

    static TestResponse post(TestPlatform platform, String key, String version, String body) {
        Map<String, String> headers = new HashMap<>();
        headers.put("Accept", "application/json, text/event-stream");
        if (version != null) {
            headers.put("MCP-Protocol-Version", version);
        }
        return platform.send("POST", "/api/mcp", key, body, headers);
    }

    /** {@code result} of a successful JSON-RPC response, failing with the whole response otherwise. */
    static JsonNode result(TestResponse response) {
        if (response.status() != 200 || !response.json().has("result")) {
            throw new AssertionError("expected a JSON-RPC result, got " + response);
        }
        return response.json().get("result");
    }

    static JsonNode callTool(TestPlatform platform, String key, String tool, String argumentsJson) {
        return result(rpc(platform, key, LATEST, "tools/call",
                "{\"name\":\"" + tool + "\",\"arguments\":" + argumentsJson + "}"));
    }
}
