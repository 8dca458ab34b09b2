/** The hosted MCP surface. Reaches tools only through the platform's ToolGateway. */
module dev.lnp.plugins.mcp {
    requires lnp.platform.api;
    requires lnp.platform.api.internal;

    provides dev.lnp.api.PlatformPlugin with dev.lnp.plugins.mcp.McpPlugin;
}
