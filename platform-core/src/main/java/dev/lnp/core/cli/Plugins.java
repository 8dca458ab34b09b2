package dev.lnp.core.cli;

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
 * The plugins the deployment's configuration describes: those in the plugins folder (PF4J) and any on the
 * platform's own class path (none in the distribution; an embedding application or a test may add some).
 */
final class Plugins implements AutoCloseable {

    private final PluginLoader folder;
    private final List<LoadedPlugin> loaded;

    Plugins(PlatformConfig config) {
        var selection = new PluginSelection(config.pluginsEnabled(), config.pluginsDisabled());
        this.folder = new PluginLoader(config.pluginsDir(), selection);
        List<LoadedPlugin> all = new ArrayList<>(ClasspathPlugins.discover(Plugins.class.getClassLoader(), selection));
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
