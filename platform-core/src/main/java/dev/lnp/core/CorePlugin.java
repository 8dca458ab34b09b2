package dev.lnp.core;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.Registrar;
import dev.lnp.api.internal.subsystem.Subsystem;
import dev.lnp.core.auth.ScopeCatalog;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.core.tenancy.UserRoutes;
import dev.lnp.json.validation.PlatformJsonValidation;
import java.time.Clock;
import java.util.List;

/**
 * The core's own contributions, registered like any plugin's so that listings and catalogs include them; the
 * subsystems' ({@link Subsystem}) are registered here too, under the core's id.
 */
public final class CorePlugin implements PlatformPlugin {

    public static final String ID = dev.lnp.api.internal.platform.PluginCatalog.CORE_ID;

    private final List<Subsystem> subsystems;
    private final Subsystem.Setup setup;

    public CorePlugin(List<Subsystem> subsystems, Subsystem.Setup setup) {
        this.subsystems = List.copyOf(subsystems);
        this.setup = setup;
    }

    /** For listings (scopes, routes): the subsystems found, registered without starting anything. */
    public static CorePlugin of(PluginRegistry registry, PlatformConfig config, Clock clock) {
        return new CorePlugin(Subsystem.load(), setup(registry, config, clock));
    }

    /** What the subsystems read while they register. */
    static Subsystem.Setup setup(PluginRegistry registry, PlatformConfig config, Clock clock) {
        return new KernelSetup(config, clock, new RegistryCatalog(registry), new PlatformJsonValidation());
    }

    @Override
    public void register(Registrar registrar) {
        registrar.scope(ScopeCatalog.MCP_USE, "Use the hosted MCP endpoints (tools are further limited by their own "
                + "scopes); implied by holding the scope of any tool.");
        registrar.scope(UserRoutes.READ, "Read the users of the workspace (to resolve assignees and delegation users).");
        UserRoutes.routes().forEach(registrar::route);
        subsystems.forEach(subsystem -> subsystem.register(registrar, setup));
    }
}
