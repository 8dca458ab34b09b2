package dev.lnp.core.plugins;

import dev.lnp.api.PlatformPlugin;
import java.util.List;

/**
 * A plugin that was found, enabled and instantiated, with what its descriptor says.
 *
 * @param dependencies ids of plugins this one needs; they are registered and migrated first
 * @param classLoader the loader of the plugin's classes and resources (its migrations, its schemas)
 */
public record LoadedPlugin(String id, String version, List<String> dependencies, PlatformPlugin instance,
        ClassLoader classLoader, String source) {
}
