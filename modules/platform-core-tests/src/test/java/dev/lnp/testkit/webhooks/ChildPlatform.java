package dev.lnp.testkit.webhooks;

import dev.lnp.core.Platform;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.plugins.ClasspathPlugins;
import dev.lnp.core.plugins.PluginSelection;
import java.util.List;
import java.util.Map;

/**
 * A platform in a process of its own, so a test can kill it with SIGKILL. Configured by {@code -Dlnp.…}
 * system properties; prints {@code READY <port>} once it serves.
 */
public final class ChildPlatform {

    private ChildPlatform() {
    }

    public static void main(String[] args) throws Exception {
        PlatformConfig config = PlatformConfig.load(null, Map.of(), Map.of());
        var plugins = ClasspathPlugins.discover(ChildPlatform.class.getClassLoader(),
                new PluginSelection(List.of("probe"), List.of()));
        Platform platform = Platform.start(config, plugins, () -> { });
        System.out.println("READY " + platform.port());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
