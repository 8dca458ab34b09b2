package dev.lnp.core.plugins.bundled;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.Registrar;

/** The entry point of a bundled plugin in PluginFolderDependenciesTest: its package is that plugin's. */
public final class BundledEntry implements PlatformPlugin {

    @Override
    public void register(Registrar registrar) {
    }
}
