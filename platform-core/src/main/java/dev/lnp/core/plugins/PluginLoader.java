package dev.lnp.core.plugins;

import dev.lnp.api.PlatformPlugin;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.pf4j.DefaultPluginManager;
import org.pf4j.PluginDescriptorFinder;
import org.pf4j.PluginManager;
import org.pf4j.PluginState;
import org.pf4j.PluginStatusProvider;
import org.pf4j.PluginWrapper;

/**
 * Loads plugins from a folder with PF4J. A plugin jar (or folder) carries a PF4J descriptor
 * ({@code plugin.properties}) and names its entry point in {@code META-INF/services/dev.lnp.api.PlatformPlugin}.
 * PF4J orders plugins by their dependencies; a plugin whose dependency is disabled or missing fails start-up.
 * A dependency may also be one of the plugins bundled with the platform, loaded before this folder
 * ({@link BundledPluginDependencies}).
 */
public final class PluginLoader {

    private static final System.Logger LOG = System.getLogger(PluginLoader.class.getName());

    private final Path pluginsDir;
    private final PluginSelection selection;
    private final List<LoadedPlugin> bundled;
    private PluginManager manager;

    /** @param bundled the plugins already loaded from the class path, which this folder's plugins may depend on */
    public PluginLoader(Path pluginsDir, PluginSelection selection, List<LoadedPlugin> bundled) {
        this.pluginsDir = pluginsDir;
        this.selection = selection;
        this.bundled = List.copyOf(bundled);
    }

    public List<LoadedPlugin> load() {
        if (!Files.isDirectory(pluginsDir)) {
            LOG.log(Level.WARNING, "Plugins folder {0} does not exist; no plugins loaded from it", pluginsDir);
            return List.of();
        }
        manager = new DefaultPluginManager(pluginsDir) {
            @Override
            protected PluginStatusProvider createPluginStatusProvider() {
                return new ConfiguredStatus(selection);
            }

            @Override
            protected PluginDescriptorFinder createPluginDescriptorFinder() {
                return new BundledPluginDependencies(super.createPluginDescriptorFinder(), bundled, selection);
            }
        };
        manager.loadPlugins();
        manager.startPlugins();
        List<LoadedPlugin> loaded = new ArrayList<>();
        // Resolved plugins come in dependency order: a plugin follows everything it depends on.
        for (PluginWrapper wrapper : manager.getResolvedPlugins()) {
            if (wrapper.getPluginState() == PluginState.DISABLED) {
                continue;
            }
            if (wrapper.getPluginState() != PluginState.STARTED) {
                throw new IllegalStateException("Plugin " + wrapper.getPluginId() + " did not start: "
                        + wrapper.getPluginState() + failure(wrapper));
            }
            loaded.add(new LoadedPlugin(
                    wrapper.getPluginId(),
                    wrapper.getDescriptor().getVersion(),
                    BundledPluginDependencies.declaredDependencies(wrapper.getDescriptor()),
                    entryPoint(wrapper),
                    wrapper.getPluginClassLoader(),
                    wrapper.getPluginPath().toString()));
        }
        return loaded;
    }

    private static String failure(PluginWrapper wrapper) {
        return wrapper.getFailedException() == null ? "" : " (" + wrapper.getFailedException().getMessage() + ")";
    }

    /** The plugin's own {@link PlatformPlugin}: declared in its jar, not one a parent loader can also see. */
    private static PlatformPlugin entryPoint(PluginWrapper wrapper) {
        ClassLoader loader = wrapper.getPluginClassLoader();
        // The same entry can be seen twice (the plugin jar and a parent's copy of it): count classes, not lines.
        List<Class<? extends PlatformPlugin>> own = ServiceLoader.load(PlatformPlugin.class, loader).stream()
                .map(ServiceLoader.Provider::type)
                .filter(type -> type.getClassLoader() == loader)
                .distinct()
                .toList();
        if (own.size() != 1) {
            throw new IllegalStateException("Plugin " + wrapper.getPluginId() + " must declare exactly one "
                    + PlatformPlugin.class.getName() + " in META-INF/services; found " + own.size());
        }
        try {
            return own.get(0).getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot create the entry point of plugin " + wrapper.getPluginId(), e);
        }
    }

    public void unload() {
        if (manager != null) {
            manager.stopPlugins();
            manager.unloadPlugins();
        }
    }

    private record ConfiguredStatus(PluginSelection selection) implements PluginStatusProvider {
        @Override
        public boolean isPluginDisabled(String pluginId) {
            return !selection.isEnabled(pluginId);
        }

        @Override
        public void disablePlugin(String pluginId) {
            throw new IllegalStateException("Plugins are enabled and disabled in the configuration");
        }

        @Override
        public void enablePlugin(String pluginId) {
            throw new IllegalStateException("Plugins are enabled and disabled in the configuration");
        }
    }
}
