package dev.lnp.cli;

import dev.lnp.core.CorePlugin;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.plugins.ClasspathPlugins;
import dev.lnp.core.plugins.LoadedPlugin;
import dev.lnp.core.plugins.PluginLoader;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.core.plugins.PluginSelection;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The plugins the deployment's configuration describes: those on the platform's class path (the distribution's
 * bundled plugins in {@code lib/plugins/}, which bin/platform puts there, or an embedding application's or a
 * test's), then those in the plugins folder (PF4J), which may depend on the former.
 */
final class Plugins implements AutoCloseable {

    private final PluginLoader folder;
    private final List<LoadedPlugin> loaded;

    Plugins(PlatformConfig config) {
        var selection = new PluginSelection(config.pluginsEnabled(), config.pluginsDisabled());
        List<LoadedPlugin> all = new ArrayList<>(ClasspathPlugins.discover(Plugins.class.getClassLoader(), selection));
        this.folder = new PluginLoader(config.pluginsDir(), selection, all);
        all.addAll(folder.load());
        this.loaded = List.copyOf(all);
    }

    List<LoadedPlugin> loaded() {
        return loaded;
    }

    /** What the core and these plugins register, as a running platform would see it (routes, scopes, tools). */
    PluginRegistry registry(PlatformConfig config) {
        PluginRegistry registry = new PluginRegistry();
        registry.register(CorePlugin.ID, CorePlugin.of(registry, config, Clock.systemUTC()));
        for (LoadedPlugin plugin : loaded) {
            registry.register(plugin.id(), plugin.instance());
        }
        return registry;
    }

    @Override
    public void close() {
        folder.unload();
    }
}
