package dev.lnp.plugins.mcp.protocol;

/**
 * The scopes of the MCP surface. {@code mcp.use} (every MCP endpoint) is declared by the platform, which grants
 * it with the MCP presets; {@code mcp.audit.read} is declared by this plugin.
 */
public final class McpScopes {

    public static final String USE = "mcp.use";
    public static final String AUDIT_READ = "mcp.audit.read";

    private McpScopes() {
    }
}
