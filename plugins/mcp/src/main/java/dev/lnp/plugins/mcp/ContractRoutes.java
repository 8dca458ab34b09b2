package dev.lnp.plugins.mcp;

import dev.lnp.plugins.mcp.protocol.McpScopes;
import dev.lnp.plugins.mcp.protocol.ToolJson;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.JsonSchemas;
import dev.lnp.api.PluginContext;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.QueryParam;
import dev.lnp.api.http.ResponseShape;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.internal.mcp.McpCaller;
import dev.lnp.api.internal.mcp.ToolEntry;
import dev.lnp.api.internal.mcp.ToolGateway;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.plugins.mcp.protocol.McpVersions;
import java.io.IOException;
import java.util.List;
import java.util.TreeSet;

/**
 * The contract endpoints of the hosted MCP surface. They answer their objects directly (no {@code data}
 * envelope around the session or the catalog; a call answers {@code {data, entities}}), count against the MCP
 * rate limit, and need {@code mcp.use}; each tool then needs its own scope.
 */
final class ContractRoutes {

    private final PluginContext context;

    ContractRoutes(PluginContext context) {
        this.context = context;
    }

    /** Looked up per request: the platform offers it once plugins have started. */
    private ToolGateway gateway() {
        return context.require(ToolGateway.class);
    }

    List<RouteSpec> routes() {
        return List.of(
                RouteSpec.get("/api/mcp/session").scope(McpScopes.USE).shape(ResponseShape.DIRECT)
                        .summary("Who the key is on the MCP surface: permissions, allowed and denied tools, limits")
                        .handler(this::session),
                RouteSpec.get("/api/mcp/tools/list").scope(McpScopes.USE).shape(ResponseShape.DIRECT)
                        .query(QueryParam.bool("includeDenied", "Also list the tools this key may not call, with why"),
                                QueryParam.bool("includeSchemas", "Include each tool's input and output schema"))
                        .summary("The tool catalog for this key").handler(this::list),
                RouteSpec.post("/api/mcp/tools/call").scope(McpScopes.USE).shape(ResponseShape.DIRECT)
                        .status(200).answersFromToolCalls().body(JsonSchemas.load(ContractRoutes.class, "tool-call.json"))
                        .summary("Calls one tool: {name, arguments} -> {data, entities}").handler(this::call));
    }

    private ApiResponse session(ApiRequest req) {
        McpCaller caller = gateway().caller(req);
        List<ToolEntry> catalog = gateway().catalog(req);
        ObjectNode session = Json.object();
        session.put("workspaceId", caller.principal().workspaceId().toString());
        session.put("connectionId", caller.principal().connectionId().toString());
        List<String> allowed = catalog.stream().filter(ToolEntry::allowed).map(e -> e.tool().name()).toList();
        session.put("allowedToolCount", allowed.size());
        session.put("deniedToolCount", catalog.size() - allowed.size());
        session.set("allowedToolNames", strings(allowed));
        ObjectNode permissions = session.putObject("permissions");
        permissions.set("granted", strings(new TreeSet<>(caller.principal().scopes())));
        McpCaller.ToolPolicy policy = caller.toolPolicy();
        permissions.set("toolAllowList", policy.allowList().map(ContractRoutes::strings).orElse(null));
        permissions.set("toolDenyList", strings(policy.denyList()));
        permissions.put("readOnlyTools", policy.readOnlyTools());
        permissions.set("disabledModules", strings(policy.disabledModules()));
        ObjectNode key = session.putObject("key");
        key.put("expiresAt", caller.keyExpiresAt().map(Object::toString).orElse(null));
        key.put("delegatedUserId", caller.principal().delegatedUserId().map(Object::toString).orElse(null));
        // Restricted keys (agent trials) carry a lifetime budget of tool calls; null for ordinary keys.
        session.set("toolCalls", caller.toolCalls().map(b -> (com.fasterxml.jackson.databind.JsonNode) Json.object()
                .put("limit", b.limit()).put("remaining", b.remaining())
                .put("expiresAt", caller.keyExpiresAt().map(Object::toString).orElse(null))).orElse(null));
        session.putObject("rateLimit")
                .put("limit", caller.rateLimit().limit())
                .put("remaining", caller.rateLimit().remaining())
                .put("resetSeconds", caller.rateLimit().resetSeconds());
        session.putObject("protocol")
                .put("endpoint", "/api/mcp")
                .put("transport", "streamable-http")
                .set("versions", strings(McpVersions.SUPPORTED));
        return ApiResponse.of(session);
    }

    private ApiResponse list(ApiRequest req) {
        boolean includeDenied = req.query("includeDenied").map(Boolean::parseBoolean).orElse(false);
        boolean includeSchemas = req.query("includeSchemas").map(Boolean::parseBoolean).orElse(false);
        List<ToolEntry> catalog = gateway().catalog(req);
        ArrayNode tools = Json.mapper().createArrayNode();
        for (ToolEntry entry : catalog) {
            if (entry.allowed() || includeDenied) {
                tools.add(entry(entry, includeSchemas));
            }
        }
        long allowed = catalog.stream().filter(ToolEntry::allowed).count();
        ObjectNode body = Json.object();
        body.put("allowedToolCount", allowed);
        body.put("deniedToolCount", catalog.size() - allowed);
        body.set("tools", tools);
        return ApiResponse.of(body);
    }

    /** One catalog entry; the shape is documented in docs/mcp.md. */
    static ObjectNode entry(ToolEntry entry, boolean includeSchemas) {
        var tool = entry.tool();
        ObjectNode node = Json.object();
        node.put("name", tool.name());
        node.put("title", tool.title());
        node.put("description", tool.description());
        node.put("module", entry.module());
        node.put("scope", tool.scope());
        node.set("annotations", ToolJson.annotations(tool));
        node.put("allowed", entry.allowed());
        entry.denial().ifPresent(d -> node.putObject("denied")
                .put("reason", d.reason()).put("setting", d.setting()).put("message", d.message()));
        if (includeSchemas) {
            node.set("inputSchema", tool.inputSchema());
            node.set("outputSchema", tool.outputSchema());
        }
        return node;
    }

    private ApiResponse call(ApiRequest req) {
        JsonNode body = req.body();
        ToolResult result;
        try {
            result = gateway().call(req, body.get("name").asText(), body.get("arguments"));
        } catch (ApiProblem problem) {
            throw problem.status() == 422 && "validation_failed".equals(problem.code())
                    ? underArguments(problem) : problem;
        }
        return ApiResponse.of(new CallAnswer(result.data(), result.entities()));
    }

    /**
     * {@code {"data": …, "entities": [{"type", "id", "action"}, …]}}, the tool's data written as it is (a streamed
     * list's rows go straight into the response) and the entities field by field: no tree of either (a list
     * names every row it read, so the entities were a node and a map per row).
     */
    private record CallAnswer(Object data, List<EntityRef> entities) implements JsonSerializable {
        private static final SerializedString TYPE = new SerializedString("type");
        private static final SerializedString ID = new SerializedString("id");
        private static final SerializedString ACTION = new SerializedString("action");

        @Override
        public void serialize(JsonGenerator json, SerializerProvider serializers) throws IOException {
            json.writeStartObject();
            json.writeFieldName("data");
            serializers.defaultSerializeValue(data, json);
            json.writeArrayFieldStart("entities");
            for (EntityRef e : entities) {
                json.writeStartObject();
                json.writeFieldName(TYPE);
                json.writeString(e.type());
                json.writeFieldName(ID);
                json.writeString(e.id().toString());
                json.writeFieldName(ACTION);
                json.writeString(e.action());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }

        @Override
        public void serializeWithType(JsonGenerator json, SerializerProvider serializers, TypeSerializer type)
                throws IOException {
            serialize(json, serializers);
        }
    }

    /** The tool's argument errors point into {@code arguments} of this route's body, like every 422 here. */
    private static ApiProblem underArguments(ApiProblem problem) {
        List<FieldError> errors = problem.errors().stream()
                .map(e -> new FieldError("/arguments" + e.pointer(), e.rule(), e.message()))
                .toList();
        return new ApiProblem(problem.status(), problem.code(), problem.title(), problem.detail(), errors,
                problem.headers());
    }

    private static ArrayNode strings(java.util.Collection<String> values) {
        ArrayNode array = Json.mapper().createArrayNode();
        values.forEach(array::add);
        return array;
    }
}
