package dev.lnp.core.cli;

import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.plugins.PluginRegistry;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "routes", mixinStandardHelpOptions = true,
        description = "Print every registered route with its plugin and scope (loads plugins; needs no database).")
final class RoutesCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        QuietLogging.install();
        PlatformConfig config = PlatformConfig.fromEnvironment(Map.of());
        try (var plugins = new Plugins(config)) {
            PluginRegistry registry = plugins.registry(config);
            System.out.printf("%-7s %-48s %-10s %s%n", "METHOD", "PATH", "PLUGIN", "SCOPE");
            for (var route : registry.routes()) {
                System.out.printf("%-7s %-48s %-10s %s%n", route.spec().method(), route.spec().path(),
                        route.pluginId(), route.spec().isPublic() ? "(public)" : route.spec().scope());
            }
            return 0;
        }
    }

}
