package dev.lnp.core.plugins;

import dev.lnp.api.PlatformPlugin;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.pf4j.DefaultVersionManager;
import org.pf4j.DependencyResolver;
import org.pf4j.PluginDescriptor;
import org.pf4j.PropertiesPluginDescriptorFinder;

/**
 * Finds plugins that sit on the platform's own class path: the distribution's bundled plugins (lib/plugins/,
 * which bin/platform puts on the class path) and every plugin in a plugin's tests. Each is described by the
 * same {@code plugin.properties} its jar carries, and ordered by PF4J's dependency resolver, so a plugin
 * behaves the same on the class path as when loaded from the plugins folder.
 */
public final class ClasspathPlugins {

    private ClasspathPlugins() {
    }

    public static List<LoadedPlugin> discover(ClassLoader classLoader, PluginSelection selection) {
        var finder = new PropertiesPluginDescriptorFinder();
        Map<String, PlatformPlugin> instances = new HashMap<>();
        Map<String, PluginDescriptor> descriptors = new HashMap<>();
        Map<String, Path> sources = new HashMap<>();
        for (var provider : ServiceLoader.load(PlatformPlugin.class, classLoader).stream().toList()) {
            Path location = codeSource(provider.type());
            PluginDescriptor descriptor = finder.find(location);
            if (!selection.isEnabled(descriptor.getPluginId())) {
                continue;
            }
            if (instances.containsKey(descriptor.getPluginId())) {
                throw new IllegalStateException("Two plugins with id " + descriptor.getPluginId() + ": "
                        + sources.get(descriptor.getPluginId()) + " and " + location);
            }
            instances.put(descriptor.getPluginId(), provider.get());
            descriptors.put(descriptor.getPluginId(), descriptor);
            sources.put(descriptor.getPluginId(), location);
        }
        var result = new DependencyResolver(new DefaultVersionManager()).resolve(new ArrayList<>(descriptors.values()));
        if (result.hasCyclicDependency()) {
            throw new IllegalStateException("Plugins depend on each other in a cycle");
        }
        if (!result.getNotFoundDependencies().isEmpty()) {
            throw new IllegalStateException("Plugins need plugins that are missing or disabled: "
                    + result.getNotFoundDependencies());
        }
        if (!result.getWrongVersionDependencies().isEmpty()) {
            throw new IllegalStateException("Plugin dependencies of the wrong version: "
                    + result.getWrongVersionDependencies());
        }
        List<LoadedPlugin> ordered = new ArrayList<>();
        for (String id : result.getSortedPlugins()) {
            PluginDescriptor d = descriptors.get(id);
            PlatformPlugin instance = instances.get(id);
            ordered.add(new LoadedPlugin(id, d.getVersion(),
                    d.getDependencies().stream().map(dep -> dep.getPluginId()).toList(),
                    instance, instance.getClass().getClassLoader(), sources.get(id).toString()));
        }
        return ordered;
    }

    private static Path codeSource(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("Cannot locate the jar of plugin class " + type.getName(), e);
        }
    }
}
