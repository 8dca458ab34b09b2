package dev.lnp.core;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.Registrar;

/** The core's own contributions, registered like any plugin's so that listings and catalogs include them. */
public final class CorePlugin implements PlatformPlugin {

    public static final String ID = "core";

    @Override
    public void register(Registrar registrar) {
        registrar.scope("mcp.use", "Use the hosted MCP endpoints (tools are further limited by their own scopes).");
    }
}
