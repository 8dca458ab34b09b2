package dev.lnp.plugins.mcp;

import dev.lnp.api.mcp.ToolGateway;

/**
 * The platform's tool gateway, known from {@code start} on; routes are declared earlier, in {@code register}, and
 * reach it through this holder. {@code pageSize} is the tools/list page of the MCP protocol endpoint.
 */
public final class GatewayHolder {

    private volatile ToolGateway gateway;
    private volatile int pageSize;

    void set(ToolGateway gateway, int pageSize) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("lnp.mcp.page_size must be at least 1, not " + pageSize);
        }
        this.gateway = gateway;
        this.pageSize = pageSize;
    }

    public ToolGateway get() {
        ToolGateway g = gateway;
        if (g == null) {
            throw new IllegalStateException("the mcp plugin has not been started");
        }
        return g;
    }

    public int pageSize() {
        return pageSize;
    }
}
