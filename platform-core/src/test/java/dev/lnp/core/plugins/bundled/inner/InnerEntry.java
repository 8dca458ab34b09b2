package dev.lnp.core.plugins.bundled.inner;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.Registrar;

/** A bundled plugin whose package lies inside another bundled plugin's (BundledPluginIsolationTest). */
public final class InnerEntry implements PlatformPlugin {

    @Override
    public void register(Registrar registrar) {
    }
}
