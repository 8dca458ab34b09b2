package dev.lnp.core;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.Registrar;
import dev.lnp.core.auth.ScopeCatalog;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.http.OpenApiRoute;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.core.tenancy.UserRoutes;
import java.time.Clock;
import java.util.List;

/**
 * The core's own contributions, registered like any plugin's so that listings and catalogs include them; the
 * subsystems' ({@link Subsystem}, e.g. webhooks) are registered here too, under the core's id.
 */
public final class CorePlugin implements PlatformPlugin {

    public static final String ID = "core";

    private final OpenApiRoute openApi;
    private final List<Subsystem> subsystems;
    private final Subsystem.Setup setup;
    private final List<dev.lnp.api.internal.subsystem.Subsystem> modules;
    private final dev.lnp.api.internal.subsystem.Subsystem.Setup moduleSetup;

    public CorePlugin(OpenApiRoute openApi, List<Subsystem> subsystems, Subsystem.Setup setup,
            List<dev.lnp.api.internal.subsystem.Subsystem> modules) {
        this.openApi = openApi;
        this.subsystems = List.copyOf(subsystems);
        this.setup = setup;
        this.modules = List.copyOf(modules);
        this.moduleSetup = new KernelSetup(setup.config(), setup.clock());
    }

    /** For listings (scopes, routes): the subsystems found, registered without starting anything. */
    public static CorePlugin of(PluginRegistry registry, PlatformConfig config, Clock clock) {
        return new CorePlugin(new OpenApiRoute(registry, config.get("lnp.base.url")), Subsystem.load(),
                new Subsystem.Setup(registry, config, clock), dev.lnp.api.internal.subsystem.Subsystem.load());
    }

    @Override
    public void register(Registrar registrar) {
        registrar.scope(ScopeCatalog.MCP_USE, "Use the hosted MCP endpoints (tools are further limited by their own "
                + "scopes); implied by holding the scope of any tool.");
        registrar.scope(UserRoutes.READ, "Read the users of the workspace (to resolve assignees and delegation users).");
        UserRoutes.routes().forEach(registrar::route);
        modules.forEach(module -> module.register(registrar, moduleSetup));
        subsystems.forEach(subsystem -> subsystem.register(registrar, setup));
        registrar.route(openApi.route());
    }
}
