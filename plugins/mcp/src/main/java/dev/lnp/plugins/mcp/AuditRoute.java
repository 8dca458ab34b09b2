package dev.lnp.plugins.mcp;

import dev.lnp.plugins.mcp.protocol.McpScopes;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.PluginContext;
import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.QueryParam;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.internal.mcp.ToolCallFilter;
import dev.lnp.api.internal.mcp.ToolCallPage;
import dev.lnp.api.internal.mcp.ToolCallRecord;
import dev.lnp.api.internal.mcp.ToolGateway;
import java.util.List;
import java.util.UUID;

/** {@code GET /api/mcp/audit}: the workspace's tool calls, newest first, in the v1 list envelope. */
final class AuditRoute {

    private final PluginContext context;

    AuditRoute(PluginContext context) {
        this.context = context;
    }

    List<RouteSpec> routes() {
        return List.of(RouteSpec.get("/api/mcp/audit").scope(McpScopes.AUDIT_READ).paginated()
                .query(QueryParam.string("tool", "Only calls of this tool"),
                        QueryParam.oneOf("outcome", ToolCallRecord.OUTCOMES, "Only calls that ended this way"),
                        QueryParam.uuid("connection_id", "Only calls made with this connection's keys"))
                .summary("The workspace's MCP tool calls (never their arguments)")
                .handler(this::list));
    }

    private ApiResponse list(ApiRequest req) {
        ToolCallPage page = context.require(ToolGateway.class).audit(req, new ToolCallFilter(req.query("tool"), req.query("outcome"),
                req.query("connection_id").map(UUID::fromString), req.pageRequest()));
        ArrayNode items = Json.mapper().createArrayNode();
        for (ToolCallRecord r : page.items()) {
            ObjectNode item = items.addObject();
            item.put("id", r.id());
            item.put("at", r.at().toString());
            item.put("requestId", r.requestId());
            item.put("connectionId", r.connectionId().toString());
            item.put("endpoint", r.endpoint());
            item.put("tool", r.tool());
            item.put("outcome", r.outcome());
            item.put("errorCode", r.errorCode());
            item.put("durationMs", r.durationMs());
            ArrayNode entities = item.putArray("entities");
            for (EntityRef e : r.entities()) {
                entities.addObject().put("type", e.type()).put("id", e.id().toString()).put("action", e.action());
            }
        }
        return ApiResponse.page(items, page.page());
    }
}
