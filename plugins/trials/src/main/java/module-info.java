/** Agent trials: a human-approved, isolated, temporary trial workspace for an AI agent. Built only on the API. */
module dev.lnp.plugins.trials {
    requires lnp.platform.api;
    requires lnp.platform.pages;
    requires lnp.platform.api.internal;

    provides dev.lnp.api.PlatformPlugin with dev.lnp.plugins.trials.TrialsPlugin;
}
