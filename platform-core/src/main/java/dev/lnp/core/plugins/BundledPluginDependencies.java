package dev.lnp.core.plugins;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.pf4j.DefaultVersionManager;
import org.pf4j.PluginDependency;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginDescriptorFinder;
import org.pf4j.VersionManager;

/**
 * Lets a plugin in the plugins folder depend on a plugin bundled with the platform. The bundled plugins are
 * loaded before PF4J looks at the folder (they sit on the application class path, see {@link ClasspathPlugins}),
 * so PF4J, which resolves dependencies among the folder's plugins only, would not find them. This finder
 * checks such a dependency itself (the bundled plugin is loaded and its version meets the constraint) and
 * hides it from PF4J; the folder's plugins are registered after every bundled one, so the order still holds.
 * A dependency on a bundled plugin that is switched off stays, and PF4J refuses it as missing.
 */
final class BundledPluginDependencies implements PluginDescriptorFinder {

    private final PluginDescriptorFinder found;
    private final Map<String, LoadedPlugin> bundled;
    private final PluginSelection selection;
    private final VersionManager versions = new DefaultVersionManager();

    BundledPluginDependencies(PluginDescriptorFinder found, List<LoadedPlugin> bundled, PluginSelection selection) {
        this.found = found;
        this.bundled = bundled.stream().collect(Collectors.toMap(LoadedPlugin::id, Function.identity()));
        this.selection = selection;
    }

    @Override
    public boolean isApplicable(Path pluginPath) {
        return found.isApplicable(pluginPath);
    }

    @Override
    public PluginDescriptor find(Path pluginPath) {
        PluginDescriptor descriptor = found.find(pluginPath);
        LoadedPlugin twin = bundled.get(descriptor.getPluginId());
        if (twin != null) {
            throw new IllegalStateException("Plugin " + descriptor.getPluginId() + " in " + pluginPath
                    + " is also bundled with the platform (" + twin.source() + "); remove the jar from the plugins "
                    + "folder, or switch the bundled one off in lnp.plugins.disabled and rename this one");
        }
        if (selection.isEnabled(descriptor.getPluginId())) {
            descriptor.getDependencies().forEach(d -> checkVersion(descriptor.getPluginId(), d));
        }
        List<PluginDependency> outside = descriptor.getDependencies().stream()
                .filter(d -> !bundled.containsKey(d.getPluginId()))
                .toList();
        return outside.size() == descriptor.getDependencies().size() ? descriptor
                : new WithoutBundled(descriptor, outside);
    }

    private void checkVersion(String pluginId, PluginDependency dependency) {
        LoadedPlugin target = bundled.get(dependency.getPluginId());
        if (target != null && !versions.checkVersionConstraint(target.version(), dependency.getPluginVersionSupport())) {
            throw new IllegalStateException("Plugin " + pluginId + " needs plugin " + dependency.getPluginId()
                    + " in version " + dependency.getPluginVersionSupport() + ", but the bundled one is "
                    + target.version());
        }
    }

    /** The descriptor as written, less the dependencies on bundled plugins (checked above). */
    private record WithoutBundled(PluginDescriptor declared, List<PluginDependency> outside)
            implements PluginDescriptor {

        @Override
        public String getPluginId() {
            return declared.getPluginId();
        }

        @Override
        public String getPluginDescription() {
            return declared.getPluginDescription();
        }

        @Override
        public String getPluginClass() {
            return declared.getPluginClass();
        }

        @Override
        public String getVersion() {
            return declared.getVersion();
        }

        @Override
        public String getRequires() {
            return declared.getRequires();
        }

        @Override
        public String getProvider() {
            return declared.getProvider();
        }

        @Override
        public String getLicense() {
            return declared.getLicense();
        }

        @Override
        public List<PluginDependency> getDependencies() {
            return outside;
        }
    }

    /** Every dependency the plugin's descriptor declares, those on bundled plugins included. */
    static List<String> declaredDependencies(PluginDescriptor descriptor) {
        PluginDescriptor declared = descriptor instanceof WithoutBundled w ? w.declared() : descriptor;
        return declared.getDependencies().stream().map(PluginDependency::getPluginId).toList();
    }
}
