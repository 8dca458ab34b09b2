package dev.lnp.cli;

import dev.lnp.core.auth.ScopeCatalog;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.plugins.PluginRegistry;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "scopes", mixinStandardHelpOptions = true,
        description = "Print every scope the loaded plugins declare, and what the presets grant (needs no database).")
final class ScopesCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        QuietLogging.install();
        PlatformConfig config = PlatformConfig.fromEnvironment(Map.of());
        try (var plugins = new Plugins(config)) {
            PluginRegistry registry = plugins.registry(config);
            ScopeCatalog catalog = new ScopeCatalog(registry);
            System.out.printf("%-20s %-10s %-12s %s%n", "SCOPE", "PLUGIN", "PRESETS", "DESCRIPTION");
            for (var scope : registry.scopes()) {
                String presets = catalog.preset(ScopeCatalog.READ_ONLY).contains(scope.name()) ? "read-only,full" : "full";
                System.out.printf("%-20s %-10s %-12s %s%n", scope.name(), scope.pluginId(), presets, scope.description());
            }
            return 0;
        }
    }
}
