package dev.lnp.core.plugins;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.pf4j.BasePluginLoader;
import org.pf4j.CompoundPluginLoader;
import org.pf4j.DefaultPluginClasspath;
import org.pf4j.DevelopmentPluginClasspath;
import org.pf4j.JarPluginLoader;
import org.pf4j.PluginClassLoader;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginManager;

/**
 * Keeps a plugin of the plugins folder out of the bundled plugins' classes unless it declares a dependency on them.
 * The bundled plugins sit on the application class path ({@link ClasspathPlugins}, so that the AOT cache links their
 * lambdas), and PF4J's class loader of a folder plugin asks the application class path after the plugin's own jar:
 * without this, every folder plugin could use every bundled plugin's classes, and would break only where that
 * plugin is switched off. A bundled plugin's classes are those in its entry point's package and the packages below
 * it ({@code dev.lnp.plugins.crm} and {@code dev.lnp.plugins.crm.*}), unless the folder plugin's own jar has them.
 */
final class BundledPluginIsolation {

    /** The bundled plugin's id by its package, with a trailing dot ({@code "dev.lnp.plugins.crm." -> "crm"}). */
    private final Map<String, String> pluginOfPackage;

    BundledPluginIsolation(List<LoadedPlugin> bundled) {
        this.pluginOfPackage = bundled.stream().collect(Collectors.toUnmodifiableMap(
                plugin -> plugin.instance().getClass().getPackageName() + ".", LoadedPlugin::id, (a, b) -> a));
    }

    /** The bundled plugin a class belongs to (the one with the longest matching package), or null for none. */
    String pluginOf(String className) {
        String owner = null;
        int longest = 0;
        for (var entry : pluginOfPackage.entrySet()) {
            if (entry.getKey().length() > longest && className.startsWith(entry.getKey())) {
                owner = entry.getValue();
                longest = entry.getKey().length();
            }
        }
        return owner;
    }

    /** PF4J's loaders of a folder's plugins (development classes folders, jars, unpacked folders), isolated. */
    org.pf4j.PluginLoader loaders(PluginManager manager) {
        return new CompoundPluginLoader()
                .add(new BasePluginLoader(manager, new DevelopmentPluginClasspath()) {
                    @Override
                    protected PluginClassLoader createPluginClassLoader(Path path, PluginDescriptor descriptor) {
                        return new IsolatedClassLoader(manager, descriptor, getClass().getClassLoader());
                    }
                }, manager::isDevelopment)
                .add(new JarPluginLoader(manager) {
                    @Override
                    public ClassLoader loadPlugin(Path path, PluginDescriptor descriptor) {
                        var loader = new IsolatedClassLoader(manager, descriptor, getClass().getClassLoader());
                        loader.addFile(path.toFile());
                        return loader;
                    }
                }, manager::isNotDevelopment)
                .add(new BasePluginLoader(manager, new DefaultPluginClasspath()) {
                    @Override
                    public boolean isApplicable(Path path) {
                        return super.isApplicable(path) && Files.isDirectory(path);
                    }

                    @Override
                    protected PluginClassLoader createPluginClassLoader(Path path, PluginDescriptor descriptor) {
                        return new IsolatedClassLoader(manager, descriptor, getClass().getClassLoader());
                    }
                }, manager::isNotDevelopment);
    }

    /** PF4J's class loader, refusing the classes of a bundled plugin the plugin does not depend on. */
    private final class IsolatedClassLoader extends PluginClassLoader {

        private final String pluginId;
        private final Set<String> dependencies;

        IsolatedClassLoader(PluginManager manager, PluginDescriptor descriptor, ClassLoader parent) {
            super(manager, descriptor, parent);
            this.pluginId = descriptor.getPluginId();
            this.dependencies = Set.copyOf(BundledPluginDependencies.declaredDependencies(descriptor));
        }

        @Override
        public Class<?> loadClass(String className) throws ClassNotFoundException {
            String owner = pluginOf(className);
            // The plugin's own classes stay its own, whatever their package (an embedding application's class-path
            // plugin may share a package root with the folder's plugins).
            if (owner != null && !dependencies.contains(owner)
                    && findResource(className.replace('.', '/') + ".class") == null) {
                throw new ClassNotFoundException(className + " belongs to the bundled plugin " + owner
                        + ", which plugin " + pluginId + " does not depend on: add " + owner
                        + " to plugin.dependencies in its plugin.properties");
            }
            return super.loadClass(className);
        }
    }
}
