package dev.lnp.cli;

import dev.lnp.core.config.PlatformConfig;
import dev.lnp.database.Database;
import dev.lnp.database.DatabaseBootstrap;
import dev.lnp.database.migrations.Migrations;
import dev.lnp.core.plugins.LoadedPlugin;
import dev.lnp.core.plugins.PluginRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = {"Apply the core's and the plugins' database migrations without serving, and exit.",
                "Refuses, changing nothing, a database that a newer version has migrated."})
final class MigrateCommand implements Callable<Integer> {

    @Option(names = "--check", description = "Only show what would be applied; change nothing.")
    boolean check;

    @Override
    public Integer call() {
        PlatformConfig config = PlatformConfig.fromEnvironment(Map.of());
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        try (var plugins = new Plugins(config);
                var bootstrap = DatabaseBootstrap.forOperatorCommand(config);
                Database database = bootstrap.connect()) {
            PluginRegistry registry = plugins.registry(config);
            var migrations = new Migrations(database.dataSource(), database.jdbi());
            List<Migrations.Owner> owners = owners(migrations, plugins.loaded(), registry);
            List<Migrations.Status> before = owners.stream().map(migrations::status).toList();
            List<String> newer = new ArrayList<>();
            before.forEach(s -> s.newer().forEach(v -> newer.add(name(s.owner()) + " " + v)));
            if (!newer.isEmpty()) {
                throw new IllegalStateException("the database was migrated by a newer version of the platform ("
                        + String.join(", ", newer) + "); run that version or a newer one, nothing was changed");
            }
            for (Migrations.Status s : before) {
                if (check) {
                    System.out.println(name(s.owner()) + ": at " + s.current() + ", " + s.pending() + " pending");
                    continue;
                }
                var subsystem = migrations.subsystems().stream().filter(o -> o.owner().equals(s.owner())).findFirst();
                if (s.owner().id().equals(Migrations.Owner.core().id())) {
                    migrations.migrateCore();
                } else if (subsystem.isPresent()) {
                    migrations.migrateSubsystem(subsystem.get());
                } else {
                    migrations.migrateProtectedPlugin(s.owner().id(), s.owner().schema(), s.owner().classLoader());
                }
                System.out.println(name(s.owner()) + ": applied " + s.pending() + ", now at "
                        + migrations.status(s.owner()).current());
            }
            return 0;
        }
    }

    /** The core's, then the subsystems', then the plugins': the order a start migrates them in. */
    private static List<Migrations.Owner> owners(Migrations migrations, List<LoadedPlugin> loaded,
            PluginRegistry registry) {
        List<Migrations.Owner> owners = new ArrayList<>(List.of(Migrations.Owner.core()));
        migrations.subsystems().forEach(subsystem -> owners.add(subsystem.owner()));
        for (LoadedPlugin plugin : loaded) {
            registry.contributionsOf(plugin.id()).flatMap(PluginRegistry.Contributions::schema)
                    .ifPresent(schema -> owners.add(new Migrations.Owner(plugin.id(), schema, plugin.classLoader())));
        }
        return owners;
    }

    private static String name(Migrations.Owner owner) {
        return owner.id().equals(Migrations.Owner.core().id()) ? "core" : owner.id();
    }
}
