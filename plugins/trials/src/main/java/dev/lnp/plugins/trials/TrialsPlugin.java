package dev.lnp.plugins.trials;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.PluginContext;
import dev.lnp.api.Registrar;
import dev.lnp.api.pages.PageRegistrar;

/**
 * Agent trials: an AI agent earns a human-approved, isolated, temporary trial workspace. The protocol, states and
 * decisions are in docs/agent-trials.md.
 */
public final class TrialsPlugin implements PlatformPlugin {

    public static final String SCHEMA = "trials";

    private final TrialClock clock = new TrialClock();
    private final TrialService service = new TrialService(clock);

    @Override
    public void register(Registrar registrar) {
        registrar.migrations(SCHEMA)
                .scope(TrialPages.READ, "See the AI agents' trials approved in the workspace (owners, on the "
                        + "administration's Agent trials page)")
                .scope(TrialPages.WRITE, "Revoke an AI agent's trial (owners, on the Agent trials page)");
        new TrialRoutes(service).routes().forEach(registrar::route);
        TrialEvents.types().forEach(registrar::event);
        PageRegistrar pages = PageRegistrar.of(registrar);
        new TrialPages(service).pages().forEach(pages::page);
        registrar.provide(TrialClock.class, clock);
        registrar.worker("sweeper", TrialService::sweepInterval, context -> service.sweep());
    }

    @Override
    public void start(PluginContext context) {
        service.start(context);
    }
}
