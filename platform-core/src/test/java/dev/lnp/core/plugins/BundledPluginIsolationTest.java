package dev.lnp.core.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.core.plugins.bundled.BundledEntry;
import dev.lnp.core.plugins.bundled.inner.InnerEntry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which bundled plugin a class belongs to: its entry point's package and those below, the closest one winning. */
class BundledPluginIsolationTest {

    private final BundledPluginIsolation isolation = new BundledPluginIsolation(List.of(
            bundled("outer", new BundledEntry()), bundled("inner", new InnerEntry())));

    @Test
    void aClassBelongsToThePluginWithTheClosestPackage() {
        assertEquals("outer", isolation.pluginOf("dev.lnp.core.plugins.bundled.Repository"));
        assertEquals("outer", isolation.pluginOf("dev.lnp.core.plugins.bundled.web.Routes"));
        assertEquals("inner", isolation.pluginOf("dev.lnp.core.plugins.bundled.inner.Repository"));
        assertEquals("inner", isolation.pluginOf("dev.lnp.core.plugins.bundled.inner.deep.Thing$1"));
    }

    @Test
    void aPackageThatOnlyStartsWithTheSameLettersBelongsToNoPlugin() {
        assertNull(isolation.pluginOf("dev.lnp.core.plugins.bundledextra.Thing"));
        assertNull(isolation.pluginOf("dev.lnp.core.plugins.PluginLoader"));
        assertNull(isolation.pluginOf("dev.lnp.api.PlatformPlugin"));
    }

    private static LoadedPlugin bundled(String id, PlatformPlugin instance) {
        return new LoadedPlugin(id, "1.0.0", List.of(), instance, BundledPluginIsolationTest.class.getClassLoader(),
                "lib/plugins/" + id + "-plugin.jar");
    }
}
