package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.database.migrations.Migrations;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restart checks every history with one statement when each schema's seal matches (Flyway found that history
 * up to date for the scripts this binary carries); these tests pin that every difference Flyway would act on
 * misses the seal, so that Flyway decides as before: a script changed in the binary or in the history, a pending
 * script, a failed or missing entry, a newer compatible or incompatible migration, and a database the seals'
 * migration has not reached.
 */
@PlatformTest(plugins = "probe")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MigrationSealTest {

    @Test
    void aStartedPlatformsSchemasAreSealedAndCheckedWithoutFlyway(TestPlatform platform) {
        var migrations = migrations(platform);
        migrations.preparePlugins(List.of(probe()));
        assertEquals(List.of(Migrations.Owner.core(), probe()),
                migrations.upToDateBySeal(List.of(Migrations.Owner.core(), probe())));
    }

    @Test
    void aChecksumChangedInTheHistoryMissesTheSeal(TestPlatform platform) {
        alterHistoryAndExpectNoSeal(platform, "UPDATE probe.flyway_history SET checksum = checksum + 1 WHERE version = '1'",
                "UPDATE probe.flyway_history SET checksum = checksum - 1 WHERE version = '1'");
    }

    @Test
    void aFailedEntryMissesTheSeal(TestPlatform platform) {
        alterHistoryAndExpectNoSeal(platform, "UPDATE probe.flyway_history SET success = false WHERE version = '1'",
                "UPDATE probe.flyway_history SET success = true WHERE version = '1'");
    }

    @Test
    void aMissingEntryMissesTheSeal(TestPlatform platform) {
        alterHistoryAndExpectNoSeal(platform, """
                        CREATE TABLE public.probe_history_kept AS SELECT * FROM probe.flyway_history WHERE version = '1';
                        DELETE FROM probe.flyway_history WHERE version = '1'""",
                """
                        INSERT INTO probe.flyway_history SELECT * FROM public.probe_history_kept;
                        DROP TABLE public.probe_history_kept""");
    }

    @Test
    void aPendingScriptMissesTheSeal(TestPlatform platform) {
        var migrations = migrations(platform);
        migrations.preparePlugins(List.of(probe()));
        // The probe plugin's next version carries one more script (test resources db/migration/probe-next).
        var next = new Migrations.Owner("probe-next", "probe", getClass().getClassLoader());
        assertEquals(List.of(), migrations.upToDateBySeal(List.of(next)));
        assertEquals(1, migrations.status(next).pending());
    }

    @Test
    void aScriptChangedInTheBinaryMissesTheSealAndIsRefused(TestPlatform platform, @TempDir Path dir)
            throws IOException {
        var migrations = migrations(platform);
        String script = probeScript();
        try (URLClassLoader same = jarWith(dir.resolve("same.jar"), script);
                URLClassLoader changed = jarWith(dir.resolve("changed.jar"), script + "\n-- changed after it was applied\n")) {
            var fromJar = new Migrations.Owner("probe", "probe", same);
            migrations.preparePlugins(List.of(fromJar));
            assertEquals(List.of(fromJar), migrations.upToDateBySeal(List.of(fromJar)), "the jar's scripts are sealed");

            var changedJar = new Migrations.Owner("probe", "probe", changed);
            assertEquals(List.of(), migrations.upToDateBySeal(List.of(changedJar)));
            RuntimeException refused = assertThrows(RuntimeException.class,
                    () -> migrations.preparePlugins(List.of(changedJar)));
            assertTrue(refused.getMessage().toLowerCase().contains("checksum"), refused.getMessage());
        } finally {
            migrations.preparePlugins(List.of(probe()));
        }
        assertEquals(List.of(probe()), migrations.upToDateBySeal(List.of(probe())));
    }

    @Test
    void scriptsInALocationThatCannotBeDigestedAreNeverSealed(TestPlatform platform) {
        var migrations = migrations(platform);
        for (String where : List.of("jar:http://localhost/probe.jar!/", "jar:file:/tmp/outer.jar!/lib/probe.jar!/")) {
            ClassLoader elsewhere = new ClassLoader(null) {
                @Override
                public Enumeration<URL> getResources(String name) throws IOException {
                    return Collections.enumeration(List.of(new URL(where + name)));
                }
            };
            assertEquals(List.of(), migrations.upToDateBySeal(List.of(new Migrations.Owner("probe", "probe", elsewhere))),
                    where);
        }
    }

    @Test
    void aJarWithoutFolderEntriesIsNeverSealedThoughFlywayFindsItsScripts(TestPlatform platform, @TempDir Path dir)
            throws IOException {
        var migrations = migrations(platform);
        try (URLClassLoader bare = jarWith(dir.resolve("bare.jar"), probeScript(), false)) {
            // The class loader finds no folder there; Flyway looks through the jar's entries and finds the script.
            var fromJar = new Migrations.Owner("probe", "probe", bare);
            assertTrue(migrations.status(fromJar).upToDate());
            migrations.preparePlugins(List.of(fromJar));
            assertEquals(List.of(), migrations.upToDateBySeal(List.of(fromJar)));
        } finally {
            migrations.preparePlugins(List.of(probe()));
        }
    }

    @Test
    void aDatabaseWithoutSealsIsCheckedByFlyway(TestPlatform platform) {
        var migrations = migrations(platform);
        migrations.preparePlugins(List.of(probe()));
        platform.jdbi().useHandle(h -> h.execute("ALTER TABLE lnp_core.migration_seals RENAME TO migration_seals_kept"));
        try {
            assertEquals(List.of(), migrations.upToDateBySeal(List.of(Migrations.Owner.core(), probe())));
            migrations.preparePlugins(List.of(probe()));
        } finally {
            platform.jdbi().useHandle(h -> h.execute("ALTER TABLE lnp_core.migration_seals_kept RENAME TO migration_seals"));
        }
        platform.jdbi().useHandle(h -> h.execute(
                "ALTER FUNCTION lnp_core.migration_history_digest(text) RENAME TO migration_history_digest_kept"));
        try {
            assertEquals(List.of(), migrations.upToDateBySeal(List.of(Migrations.Owner.core(), probe())));
            migrations.preparePlugins(List.of(probe()));
        } finally {
            platform.jdbi().useHandle(h -> h.execute(
                    "ALTER FUNCTION lnp_core.migration_history_digest_kept(text) RENAME TO migration_history_digest"));
        }
    }

    @Test
    @Order(Integer.MAX_VALUE) // last: it moves the class's database to the probe plugin's next versions
    void aNewerVersionsMigrationMissesTheSealAndIsToleratedOnlyWhenCompatible(TestPlatform platform) {
        var migrations = migrations(platform);
        migrations.preparePlugins(List.of(probe()));

        migrations.migrateProtectedPlugin("probe-next", "probe", getClass().getClassLoader());
        assertEquals(List.of(), migrations.upToDateBySeal(List.of(probe())));
        migrations.preparePlugins(List.of(probe()));
        assertEquals(List.of(), migrations.upToDateBySeal(List.of(probe())),
                "a history with a newer migration is not up to date for this version, so it is never sealed");

        migrations.migrateProtectedPlugin("probe-breaking", "probe", getClass().getClassLoader());
        assertEquals(List.of(), migrations.upToDateBySeal(List.of(probe())));
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> migrations.preparePlugins(List.of(probe())));
        assertTrue(refused.getMessage().contains("probe V3 rename kind"), refused.getMessage());
    }

    private void alterHistoryAndExpectNoSeal(TestPlatform platform, String alter, String restore) {
        var migrations = migrations(platform);
        migrations.preparePlugins(List.of(probe()));
        assertEquals(List.of(probe()), migrations.upToDateBySeal(List.of(probe())));
        platform.jdbi().useHandle(h -> h.execute(alter));
        try {
            assertEquals(List.of(), migrations.upToDateBySeal(List.of(probe())));
            assertTrue(!migrations.status(probe()).upToDate(), "Flyway decides, and does not find it up to date");
        } finally {
            platform.jdbi().useHandle(h -> h.execute(restore));
        }
        assertEquals(List.of(probe()), migrations.upToDateBySeal(List.of(probe())), "the same history matches again");
    }

    private String probeScript() throws IOException {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("db/migration/probe/V1__items.sql")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** A plugin jar holding only the probe's script, with the given text, and its folders' entries, as built. */
    private static URLClassLoader jarWith(Path jar, String script) throws IOException {
        return jarWith(jar, script, true);
    }

    private static URLClassLoader jarWith(Path jar, String script, boolean withFolders) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar); var zip = new ZipOutputStream(out)) {
            if (withFolders) {
                for (String folder : List.of("db/", "db/migration/", "db/migration/probe/")) {
                    zip.putNextEntry(new ZipEntry(folder));
                    zip.closeEntry();
                }
            }
            zip.putNextEntry(new ZipEntry("db/migration/probe/V1__items.sql"));
            zip.write(script.getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        return new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
    }

    private static Migrations migrations(TestPlatform platform) {
        return new Migrations(platform.platform().database().dataSource(), platform.jdbi());
    }

    private Migrations.Owner probe() {
        return new Migrations.Owner("probe", "probe", getClass().getClassLoader());
    }
}
