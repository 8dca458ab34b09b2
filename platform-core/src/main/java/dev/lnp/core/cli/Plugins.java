package dev.lnp.core.cli;

import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.plugins.PluginLoader;
import dev.lnp.core.plugins.PluginSelection;

/** The plugin loader the deployment's configuration describes. */
final class Plugins {

    private Plugins() {
    }

    static PluginLoader loader(PlatformConfig config) {
        return new PluginLoader(config.pluginsDir(),
                new PluginSelection(config.pluginsEnabled(), config.pluginsDisabled()));
    }
}
