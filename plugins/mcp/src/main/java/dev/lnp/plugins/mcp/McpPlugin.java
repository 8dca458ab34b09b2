package dev.lnp.plugins.mcp;

import dev.lnp.plugins.mcp.protocol.McpScopes;
import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.PluginContext;
import dev.lnp.api.Registrar;
import dev.lnp.api.internal.http.Surface;
import dev.lnp.api.internal.http.SurfaceRegistrar;
import dev.lnp.api.internal.mcp.ToolGateway;
import dev.lnp.plugins.mcp.protocol.McpEndpoint;

/**
 * The hosted MCP surface: every tool any plugin registered, filtered by the caller's permissions, over the
 * contract endpoints ({@code /api/mcp/session}, {@code /api/mcp/tools/list}, {@code /api/mcp/tools/call},
 * {@code /api/mcp/audit}) and over MCP's Streamable HTTP transport at {@code /api/mcp}. Permissions, limits,
 * quotas and the audit are the platform's ({@link ToolGateway}); this plugin only speaks the two protocols.
 * Decisions are in docs/mcp.md.
 */
public final class McpPlugin implements PlatformPlugin {

    @Override
    public void register(Registrar registrar) {
        registrar.scope(McpScopes.AUDIT_READ, "List the workspace's MCP tool calls (who called which tool, outcome, entities).");
        // Handlers look the tool gateway up through the context per request; it exists once plugins start.
        PluginContext context = registrar.context();
        // Every route of this plugin is on the MCP surface: its rate-limit budget, audit label and Origin check.
        SurfaceRegistrar mcp = SurfaceRegistrar.of(registrar);
        new ContractRoutes(context).routes().forEach(route -> mcp.route(Surface.MCP, route));
        new AuditRoute(context).routes().forEach(route -> mcp.route(Surface.MCP, route));
        McpEndpoint.routes(context).forEach(route -> mcp.route(Surface.MCP, route));
    }

    @Override
    public void start(PluginContext context) {
        // Fail at start, not on the first request: the gateway must be offered and the page size valid.
        context.service(ToolGateway.class).orElseThrow(() -> new IllegalStateException(
                "the platform offers no ToolGateway; the mcp plugin needs a platform with the MCP surface"));
        McpEndpoint.pageSize(context);
    }
}
