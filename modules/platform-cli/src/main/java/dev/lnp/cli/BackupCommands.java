package dev.lnp.cli;

import dev.lnp.core.config.PlatformConfig;
import dev.lnp.embedded.postgres.EmbeddedBackup;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code platform backup} and {@code platform restore}: the embedded database, with the platform stopped. */
final class BackupCommands {

    private BackupCommands() {
    }

    static EmbeddedBackup embedded() {
        PlatformConfig config = PlatformConfig.fromEnvironment(Map.of());
        if (config.databaseUrl().isPresent()) {
            throw new IllegalStateException("lnp.database.url names an external PostgreSQL: back it up with pg_dump "
                    + "or your PostgreSQL backup tool (docs/operations.md, Backups)");
        }
        return new EmbeddedBackup(config.dataDir(), Clock.systemDefaultZone());
    }

    @Command(name = "backup", mixinStandardHelpOptions = true,
            description = {"Write the embedded database's files to a tar.gz, with the platform stopped.",
                    "For an external PostgreSQL use pg_dump or your PostgreSQL backup tool."})
    static final class Backup implements Callable<Integer> {
        @Option(names = "--to", required = true, description = "The file to write, e.g. lnp-2026-11-23.tar.gz.")
        Path target;

        @Override
        public Integer call() throws IOException {
            int files = embedded().backup(target.toAbsolutePath());
            System.out.println("Backed up the embedded database (" + files + " files) to " + target.toAbsolutePath());
            return 0;
        }
    }

    @Command(name = "restore", mixinStandardHelpOptions = true,
            description = {"Put back the embedded database from a file `platform backup` wrote, with the platform",
                    "stopped. The database it replaces is kept beside it as data.before-restore-<time>."})
    static final class Restore implements Callable<Integer> {
        @Option(names = "--from", required = true, description = "A file written by platform backup.")
        Path source;

        @Option(names = "--replace", description = "Restore over an existing database (which is kept aside).")
        boolean replace;

        @Override
        public Integer call() throws IOException {
            Path aside = embedded().restore(source.toAbsolutePath(), replace);
            System.out.println("Restored the embedded database from " + source.toAbsolutePath()
                    + (aside == null ? "" : "; the previous one is in " + aside));
            return 0;
        }
    }
}
