/** The hosted MCP surface. Reaches tools only through the platform's ToolGateway. */
module dev.lnp.plugins.mcp {
    requires lnp.platform.api;

    provides dev.lnp.api.PlatformPlugin with dev.lnp.plugins.mcp.McpPlugin;
}
