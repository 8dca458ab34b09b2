package dev.lnp.plugins.mcp.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.RawRequest;
import dev.lnp.api.http.RawResponse;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.PluginContext;
import dev.lnp.api.internal.http.RequestJson;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * MCP over Streamable HTTP at {@code /api/mcp}: the HTTP rules of the transport. Before this runs, the platform
 * has checked {@code Origin} (403), the bearer key (401 with {@code WWW-Authenticate}), {@code mcp.use} (403) and
 * the MCP rate limit (429). Here: the media types, JSON-RPC parsing, the protocol version header (400 when
 * unsupported), batching (2025-03-26) and the per-request checks of 2026-07-28 ({@link StatelessRequest});
 * {@link McpDispatcher} answers the methods.
 *
 * <p>The server is stateless: it assigns no {@code MCP-Session-Id}, answers every request with one JSON object
 * (never an SSE stream), and answers {@code GET} (no server-initiated stream) and {@code DELETE} (no session to
 * end) with 405, as the transport allows.
 */
public final class McpEndpoint {

    public static final String PATH = "/api/mcp";
    public static final int DEFAULT_PAGE_SIZE = 50;
    static final int MAX_BATCH = 20;

    private static final Map<String, String> ALLOW_POST = Map.of("Allow", "POST");

    private final McpDispatcher dispatcher;

    private McpEndpoint(PluginContext context) {
        this.dispatcher = new McpDispatcher(context);
    }

    /** The tools/list page: {@code lnp.mcp.page_size}, else {@value #DEFAULT_PAGE_SIZE}; checked at start. */
    public static int pageSize(PluginContext context) {
        int pageSize = context.config("lnp.mcp.page_size").map(Integer::parseInt).orElse(DEFAULT_PAGE_SIZE);
        if (pageSize < 1) {
            throw new IllegalArgumentException("lnp.mcp.page_size must be at least 1, not " + pageSize);
        }
        return pageSize;
    }

    public static List<RouteSpec> routes(PluginContext context) {
        McpEndpoint endpoint = new McpEndpoint(context);
        return List.of(
                RouteSpec.post(PATH).scope(McpScopes.USE)
                        .summary("MCP over Streamable HTTP (JSON-RPC 2.0)").raw(endpoint::post),
                RouteSpec.get(PATH).publicRoute()
                        .summary("405: no server-initiated SSE stream").raw(r -> notAllowed("GET",
                                "This server sends no messages of its own, so it offers no SSE stream; POST JSON-RPC messages.")),
                RouteSpec.delete(PATH).publicRoute()
                        .summary("405: the server keeps no sessions to end").raw(r -> notAllowed("DELETE",
                                "This server assigns no MCP sessions, so there is none to terminate.")));
    }

    private RawResponse post(RawRequest req) {
        if (!RequestJson.isJsonMediaType(req.header("Content-Type").orElse(""))) {
            return error(415, JsonRpc.INVALID_REQUEST,
                    "Send JSON-RPC messages with Content-Type: application/json", null);
        }
        if (!acceptsJson(req.headers("Accept"))) {
            return error(406, JsonRpc.INVALID_REQUEST,
                    "This server answers with application/json; the Accept header must allow it", null);
        }
        JsonNode body;
        try {
            body = RequestJson.readRequest(req.body());
        } catch (RequestJson.InvalidJson e) {
            return error(400, JsonRpc.PARSE_ERROR, "Parse error: " + e.getMessage(), null);
        }
        if (body == null || body.isMissingNode()) {
            return error(400, JsonRpc.INVALID_REQUEST, "The body must be one JSON-RPC message", null);
        }
        // The body is read first so that a version error carries the request's id, as 2026-07-28 asks.
        JsonNode id = Message.idOf(body);
        List<String> versions = req.headers("MCP-Protocol-Version");
        if (versions.size() > 1) {
            return json(400, JsonRpc.error(id, JsonRpc.HEADER_MISMATCH,
                    "Header mismatch: MCP-Protocol-Version was sent " + versions.size() + " times", null));
        }
        String version = versions.isEmpty() ? McpVersions.WITHOUT_HEADER : versions.get(0).strip();
        if (!McpVersions.SUPPORTED.contains(version)) {
            return json(400, JsonRpc.error(id, JsonRpc.UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version",
                    Json.object().put("requested", version)
                            .set("supported", Json.mapper().valueToTree(McpVersions.SUPPORTED))));
        }
        if (McpVersions.isStateless(version)) {
            return stateless(body, version, req);
        }
        return body.isArray() ? batch((ArrayNode) body, version, req) : single(body, version, req);
    }

    /**
     * 2026-07-28: one request per POST, checked by {@link StatelessRequest}; a method this server does not
     * implement (including 2025's {@code initialize} and {@code ping}) is 404, as the transport requires.
     */
    private RawResponse stateless(JsonNode message, String version, RawRequest req) {
        if (message.isArray()) {
            return error(400, JsonRpc.INVALID_REQUEST, "JSON-RPC batches are not part of MCP " + version
                    + "; send one message per POST", null);
        }
        return switch (Message.kind(message)) {
            case NOTIFICATION -> RawResponse.empty(202);
            case RESPONSE -> json(400, JsonRpc.error(Message.idOf(message), JsonRpc.INVALID_REQUEST,
                    "Invalid Request: in MCP " + version + " clients send no JSON-RPC responses", null));
            case INVALID -> json(400, JsonRpc.error(Message.idOf(message), JsonRpc.INVALID_REQUEST,
                    "Invalid Request: " + Message.problem(message), null));
            case REQUEST -> {
                try {
                    StatelessRequest.check(message, version, req);
                } catch (JsonRpc.Failure failure) {
                    yield json(failure.status, JsonRpc.error(message.get("id"), failure.code, failure.getMessage(),
                            failure.data));
                }
                JsonNode response = dispatcher.handle(message, version, req);
                boolean unknownMethod = response.path("error").path("code").asInt() == JsonRpc.METHOD_NOT_FOUND;
                yield json(unknownMethod ? 404 : 200, response);
            }
        };
    }

    private RawResponse single(JsonNode message, String version, RawRequest req) {
        return switch (Message.kind(message)) {
            case REQUEST -> json(200, dispatcher.handle(message, version, req));
            case NOTIFICATION, RESPONSE -> RawResponse.empty(202);
            case INVALID -> json(400, JsonRpc.error(Message.idOf(message), JsonRpc.INVALID_REQUEST,
                    "Invalid Request: " + Message.problem(message), null));
        };
    }

    private RawResponse batch(ArrayNode messages, String version, RawRequest req) {
        if (!McpVersions.allowsBatches(version)) {
            return error(400, JsonRpc.INVALID_REQUEST, "JSON-RPC batches are not part of MCP " + version
                    + "; send one message per POST", null);
        }
        if (messages.isEmpty() || messages.size() > MAX_BATCH) {
            return error(400, JsonRpc.INVALID_REQUEST, "A batch holds 1 to " + MAX_BATCH + " messages", null);
        }
        ArrayNode responses = Json.mapper().createArrayNode();
        for (JsonNode message : messages) {
            switch (Message.kind(message)) {
                case REQUEST -> responses.add("initialize".equals(message.path("method").asText())
                        ? JsonRpc.error(message.get("id"), JsonRpc.INVALID_REQUEST,
                                "initialize must not be part of a batch", null)
                        : dispatcher.handle(message, version, req));
                case INVALID -> responses.add(JsonRpc.error(Message.idOf(message), JsonRpc.INVALID_REQUEST,
                        "Invalid Request: " + Message.problem(message), null));
                case NOTIFICATION, RESPONSE -> {
                    // accepted; nothing to answer
                }
            }
        }
        return responses.isEmpty() ? RawResponse.empty(202) : json(200, responses);
    }

    private static boolean acceptsJson(List<String> accept) {
        if (accept.isEmpty()) {
            return true;
        }
        String all = String.join(",", accept).toLowerCase(Locale.ROOT);
        return all.contains("application/json") || all.contains("application/*") || all.contains("*/*");
    }

    private static RawResponse notAllowed(String method, String why) {
        return new RawResponse(405, ALLOW_POST, "application/json",
                JsonRpc.error(null, JsonRpc.INVALID_REQUEST, method + " is not supported: " + why, null).toString()
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static RawResponse error(int status, int code, String message, JsonNode data) {
        return json(status, JsonRpc.error(null, code, message, data));
    }

    private static RawResponse json(int status, JsonNode body) {
        return RawResponse.json(status, body.toString());
    }
}
