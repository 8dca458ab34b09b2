package dev.lnp.core.plugins;

import dev.lnp.api.PlatformPlugin;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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
 * ({@link BundledPluginDependencies}); a plugin may use a bundled plugin's classes only when it depends on it
 * ({@link BundledPluginIsolation}).
 */
public final class PluginLoader {

    private static final System.Logger LOG = System.getLogger(PluginLoader.class.getName());
    private static final String SERVICES = "META-INF/services/" + PlatformPlugin.class.getName();

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

            @Override
            protected org.pf4j.PluginLoader createPluginLoader() {
                return new BundledPluginIsolation(bundled).loaders(this);
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

    /**
     * The plugin's own {@link PlatformPlugin}: named in its own jar's (or folder's) service file. A parent's
     * service files are not read: they name the bundled plugins, whose classes this plugin may not load.
     */
    private static PlatformPlugin entryPoint(PluginWrapper wrapper) {
        var loader = (URLClassLoader) wrapper.getPluginClassLoader();
        List<Class<?>> own = new ArrayList<>();
        try {
            for (URL services : Collections.list(loader.findResources(SERVICES))) {
                for (String name : serviceNames(services)) {
                    Class<?> type = Class.forName(name, false, loader);
                    if (type.getClassLoader() == loader && !own.contains(type)) {
                        own.add(type);
                    }
                }
            }
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("Cannot read the entry point of plugin " + wrapper.getPluginId()
                    + " from " + SERVICES + ": " + e.getMessage(), e);
        }
        if (own.size() != 1 || !PlatformPlugin.class.isAssignableFrom(own.get(0))) {
            throw new IllegalStateException("Plugin " + wrapper.getPluginId() + " must declare exactly one "
                    + PlatformPlugin.class.getName() + " of its own in " + SERVICES + "; found " + own);
        }
        try {
            return (PlatformPlugin) own.get(0).getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot create the entry point of plugin " + wrapper.getPluginId(), e);
        }
    }

    /** The class names in a service file: one a line, {@code #} starting a comment. */
    private static List<String> serviceNames(URL services) throws IOException {
        try (InputStream in = services.openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .map(line -> line.replaceFirst("#.*", "").strip())
                    .filter(line -> !line.isEmpty())
                    .toList();
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
