package dev.lnp.plugins.mcp.protocol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.RawRequest;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.internal.mcp.ToolEntry;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.api.PluginContext;
import dev.lnp.api.internal.mcp.ToolGateway;
import java.lang.System.Logger.Level;
import java.util.List;

/**
 * Answers the JSON-RPC requests of MCP: {@code initialize}, {@code ping}, {@code tools/list} (cursor pages of
 * the tools the key may call) and {@code tools/call}. Denied tools are hidden from the list; calling one is a
 * JSON-RPC error ({@link JsonRpc#TOOL_DENIED}), never an HTTP 403, which MCP clients read as "authorize again".
 * Argument and business errors are tool execution errors ({@code isError: true}) a model can act on.
 */
final class McpDispatcher {

    private static final System.Logger LOG = System.getLogger(McpDispatcher.class.getName());
    /** Where a result lists the entities a call touched, in {@code _meta}. */
    static final String ENTITIES_META = "dev.lnp/entities";
    /**
     * How long a 2026-07-28 client may keep a {@code tools/list} page. A key's list changes only with a deployment,
     * a module switched off or the connection's tool settings; a minute bounds how long such a change goes unseen
     * (a stale entry only costs a denied call). The list is per key, hence {@code cacheScope: private}.
     */
    static final long LIST_TTL_MS = 60_000;
    /** {@code server/discover} changes only with a deployment. */
    static final long DISCOVER_TTL_MS = 3_600_000;
    private static final String INSTRUCTIONS = "Tools of this workspace (CRM, projects, issues and more), limited "
            + "to what this API key may call. Tool arguments follow each tool's inputSchema; ids are UUIDs.";

    private final PluginContext context;

    McpDispatcher(PluginContext context) {
        this.context = context;
    }

    /** Looked up per request: the platform offers it once plugins have started. */
    private ToolGateway gateway() {
        return context.require(ToolGateway.class);
    }

    ObjectNode handle(JsonNode request, String version, RawRequest http) {
        JsonNode id = request.get("id");
        JsonNode params = request.has("params") ? request.get("params") : Json.object();
        String method = request.get("method").asText();
        try {
            if (McpVersions.isStateless(version)) {
                ObjectNode result = switch (method) {
                    case "server/discover" -> discover();
                    case "tools/list" -> cacheable(listTools(params, version, http), LIST_TTL_MS, "private");
                    case "tools/call" -> callTool(params, version, http);
                    // initialize, ping, logging/setLevel and the rest are not part of 2026-07-28 or not served
                    default -> throw new JsonRpc.Failure(JsonRpc.METHOD_NOT_FOUND, "Method not found: " + method);
                };
                return JsonRpc.result(id, complete(result));
            }
            JsonNode result = switch (method) {
                case "initialize" -> initialize(params);
                case "ping" -> Json.object();
                case "tools/list" -> listTools(params, version, http);
                case "tools/call" -> callTool(params, version, http);
                default -> throw new JsonRpc.Failure(JsonRpc.METHOD_NOT_FOUND, "Method not found: " + method);
            };
            return JsonRpc.result(id, result);
        } catch (JsonRpc.Failure failure) {
            return JsonRpc.error(id, failure.code, failure.getMessage(), failure.data);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "request " + http.requestId() + " failed: MCP " + method, e);
            return JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "Internal error; quote request id " + http.requestId()
                    + " when reporting it", Json.object().put("requestId", http.requestId()));
        }
    }

    /**
     * 2026-07-28's {@code server/discover}: every revision served, the capabilities and the instructions. The
     * answer is the same for every key (no tool names, nothing of the caller), so it may be cached publicly.
     */
    private static ObjectNode discover() {
        ObjectNode result = Json.object();
        result.set("supportedVersions", Json.mapper().valueToTree(McpVersions.SUPPORTED));
        result.set("capabilities", capabilities());
        result.put("instructions", INSTRUCTIONS);
        return cacheable(result, DISCOVER_TTL_MS, "public");
    }

    /** The caching hints 2026-07-28 requires on lists and {@code server/discover}. */
    private static ObjectNode cacheable(ObjectNode result, long ttlMs, String scope) {
        return result.put("ttlMs", ttlMs).put("cacheScope", scope);
    }

    /** What every 2026-07-28 result carries: {@code resultType} and the server's identity in {@code _meta}. */
    private static ObjectNode complete(ObjectNode result) {
        result.put("resultType", "complete");
        ObjectNode meta = result.has("_meta") ? (ObjectNode) result.get("_meta") : result.putObject("_meta");
        meta.set("io.modelcontextprotocol/serverInfo", serverInfo());
        return result;
    }

    private static ObjectNode capabilities() {
        ObjectNode capabilities = Json.object();
        capabilities.putObject("tools").put("listChanged", false);
        return capabilities;
    }

    private static ObjectNode serverInfo() {
        return Json.object().put("name", "lnp-platform").put("title", "LNP workspace platform")
                .put("version", serverVersion());
    }

    private static JsonNode initialize(JsonNode params) {
        JsonNode requested = params.get("protocolVersion");
        if (requested == null || !requested.isTextual()) {
            throw new JsonRpc.Failure(JsonRpc.INVALID_PARAMS, "initialize needs params.protocolVersion (a string)");
        }
        ObjectNode result = Json.object();
        result.put("protocolVersion", McpVersions.negotiate(requested.asText()));
        result.set("capabilities", capabilities());
        result.set("serverInfo", serverInfo());
        result.put("instructions", INSTRUCTIONS);
        return result;
    }

    private ObjectNode listTools(JsonNode params, String version, RawRequest http) {
        int offset = 0;
        JsonNode cursor = params.get("cursor");
        if (cursor != null && !cursor.isNull()) {
            if (!cursor.isTextual()) {
                throw new JsonRpc.Failure(JsonRpc.INVALID_PARAMS, "params.cursor must be a string");
            }
            offset = Cursor.decode(cursor.asText());
        }
        List<ToolEntry> allowed = gateway().catalog(http).stream().filter(ToolEntry::allowed).toList();
        if (offset > allowed.size()) {
            throw new JsonRpc.Failure(JsonRpc.INVALID_PARAMS, "Invalid cursor: " + cursor.asText());
        }
        int end = Math.min(allowed.size(), offset + McpEndpoint.pageSize(context));
        boolean structured = McpVersions.hasStructuredOutput(version);
        ObjectNode result = Json.object();
        ArrayNode tools = result.putArray("tools");
        for (ToolEntry entry : allowed.subList(offset, end)) {
            var tool = entry.tool();
            ObjectNode node = tools.addObject();
            node.put("name", tool.name());
            if (structured && tool.title() != null) {
                node.put("title", tool.title());
            }
            node.put("description", tool.description());
            node.set("inputSchema", tool.inputSchema());
            if (structured) {
                node.set("outputSchema", tool.outputSchema());
            }
            node.set("annotations", ToolJson.annotations(tool));
        }
        if (end < allowed.size()) {
            result.put("nextCursor", Cursor.encode(end));
        }
        return result;
    }

    private ObjectNode callTool(JsonNode params, String version, RawRequest http) {
        JsonNode name = params.get("name");
        if (name == null || !name.isTextual() || name.asText().isEmpty()) {
            throw new JsonRpc.Failure(JsonRpc.INVALID_PARAMS, "tools/call needs params.name (a tool's name)");
        }
        JsonNode arguments = params.get("arguments");
        if (arguments != null && !arguments.isNull() && !arguments.isObject()) {
            throw new JsonRpc.Failure(JsonRpc.INVALID_PARAMS, "params.arguments must be an object");
        }
        ToolResult result;
        try {
            result = gateway().call(http, name.asText(), arguments);
        } catch (ApiProblem problem) {
            return failedCall(name.asText(), problem);
        }
        ObjectNode answer = Json.object();
        // Written once as text and reused as the structured content: no tree of the data (a list tool's rows
        // arrive as JSON already, see dev.lnp.api.sql.JsonRows).
        String data = text(result.data());
        answer.putArray("content").addObject().put("type", "text").put("text", data);
        if (McpVersions.hasStructuredOutput(version)) {
            answer.putRawValue("structuredContent", new com.fasterxml.jackson.databind.util.RawValue(data));
        }
        answer.put("isError", false);
        ArrayNode entities = answer.putObject("_meta").putArray(ENTITIES_META);
        for (EntityRef e : result.entities()) {
            entities.addObject().put("type", e.type()).put("id", e.id().toString()).put("action", e.action());
        }
        return answer;
    }

    /** Unknown and denied tools are protocol errors; anything the call itself ran into is a tool execution error. */
    private static ObjectNode failedCall(String tool, ApiProblem problem) {
        ObjectNode data = Json.object().put("code", problem.code()).put("status", problem.status());
        switch (problem.code()) {
            case "unknown_tool" -> throw new JsonRpc.Failure(JsonRpc.INVALID_PARAMS, "Unknown tool: " + tool, data);
            case "tool_denied" -> {
                problem.errors().stream().findFirst().ifPresent(e -> data.put("reason", e.rule()));
                throw new JsonRpc.Failure(JsonRpc.TOOL_DENIED, "Tool not permitted for this key: " + tool + ". "
                        + problem.detail(), data);
            }
            default -> {
                if (problem.status() >= 500) {
                    throw new JsonRpc.Failure(JsonRpc.INTERNAL_ERROR, problem.detail(), data);
                }
            }
        }
        StringBuilder text = new StringBuilder(problem.code()).append(": ").append(problem.detail());
        for (FieldError e : problem.errors()) {
            text.append("\n- ").append(e.pointer().isEmpty() ? "(arguments)" : e.pointer()).append(" [")
                    .append(e.rule()).append("]: ").append(e.message());
        }
        problem.headers().entrySet().stream().filter(h -> h.getKey().equalsIgnoreCase("Retry-After")).findFirst()
                .ifPresent(h -> text.append("\nRetry after ").append(h.getValue()).append(" s."));
        ObjectNode answer = Json.object();
        answer.putArray("content").addObject().put("type", "text").put("text", text.toString());
        answer.put("isError", true);
        return answer;
    }

    private static String text(Object data) {
        try {
            return Json.mapper().writeValueAsString(data);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String serverVersion() {
        String version = McpDispatcher.class.getPackage().getImplementationVersion();
        return version != null ? version : "development";
    }
}
