package dev.lnp.testkit.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.OperatorCli;
import dev.lnp.testkit.OperatorCli.Result;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestDatabases;
import dev.lnp.testkit.TestPlatform;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/** {@code platform migrate} and {@code platform doctor} against real PostgreSQL databases. */
@PlatformTest(plugins = "probe")
class MigrateAndDoctorCliTest {

    @Test
    void migrateAppliesEverythingOnceAndRefusesADatabaseANewerVersionMigrated(TestPlatform platform) {
        String url = TestDatabases.createDatabase("migrate-fresh");
        try {
            Map<String, String> fresh = Map.of("lnp.database.url", url);
            Result check = OperatorCli.run(platform, fresh, "migrate", "--check");
            assertEquals(0, check.exit(), check.err());
            assertTrue(check.out().matches("(?s).*core: at none, [1-9]\\d* pending.*probe: at none, [1-9]\\d* pending.*"), check.out());
            Jdbi db = Jdbi.create(url, TestDatabases.server().user(), TestDatabases.server().password());
            assertFalse(schemaExists(db, "lnp_core"), "--check changes nothing");

            Result applied = OperatorCli.run(platform, fresh, "migrate");
            assertEquals(0, applied.exit(), applied.err());
            assertTrue(applied.out().matches("(?s).*core: applied [1-9]\\d*, now at V\\d+.*probe: applied [1-9]\\d*, now at V\\d+.*"),
                    applied.out());
            assertTrue(schemaExists(db, "lnp_core") && schemaExists(db, "probe"));

            Result again = OperatorCli.run(platform, fresh, "migrate");
            assertEquals(0, again.exit(), again.err());
            assertTrue(again.out().contains("core: applied 0,") && again.out().contains("probe: applied 0,"), again.out());

            // A newer version applied core V9999; this one must not touch the database, not even the probe schema
            // it would otherwise create again.
            db.useHandle(h -> {
                h.execute("DROP SCHEMA probe CASCADE");
                h.execute("""
                        INSERT INTO lnp_core.flyway_history (installed_rank, version, description, type, script,
                                    checksum, installed_by, execution_time, success)
                        SELECT max(installed_rank) + 1, '9999', 'from the future', 'SQL', 'V9999__from_the_future.sql',
                               0, 'test', 1, true FROM lnp_core.flyway_history
                        """);
            });
            Result refused = OperatorCli.run(platform, fresh, "migrate");
            assertEquals(1, refused.exit(), refused.out());
            assertTrue(refused.err().startsWith("error: the database was migrated by a newer version")
                    && refused.err().contains("core V9999"), refused.err());
            assertFalse(schemaExists(db, "probe"), "nothing was applied");

            Result doctor = OperatorCli.run(platform, fresh, "doctor");
            assertEquals(1, doctor.exit(), doctor.out());
            assertTrue(doctor.out().contains("FAIL  migrations core: the database has migrations this version does not know"),
                    doctor.out());
        } finally {
            TestDatabases.dropDatabase(url);
        }
    }

    @Test
    void doctorReportsAHealthyInstallationAndNamesWhatToFix(TestPlatform platform) {
        Result healthy = OperatorCli.run(platform, "doctor");
        assertEquals(0, healthy.exit(), healthy.out() + healthy.err());
        for (String line : new String[] {"ok    database: reachable, PostgreSQL ", "ok    migrations core: up to date",
                "ok    migrations probe: up to date", "ok    row-level security probe", "ok    tenant role",
                "ok    clock: this node is ", "ok    plugins: ", "No problems found."}) {
            assertTrue(healthy.out().contains(line), line + " in:\n" + healthy.out());
        }
        assertTrue(healthy.out().contains("WARN  configuration: lnp.base.url is not set"), healthy.out());

        platform.jdbi().useHandle(h -> h.execute("ALTER TABLE probe.items NO FORCE ROW LEVEL SECURITY"));
        try {
            Result unprotected = OperatorCli.run(platform, "doctor");
            assertEquals(1, unprotected.exit(), unprotected.out());
            assertTrue(unprotected.out().contains("FAIL  row-level security probe: workspace tables without "
                    + "row-level security (enabled, forced, with a policy): [items] -> "), unprotected.out());
        } finally {
            platform.jdbi().useHandle(h -> h.execute("ALTER TABLE probe.items FORCE ROW LEVEL SECURITY"));
        }

        Result unreachable = OperatorCli.run(platform, Map.of("lnp.database.url", "jdbc:postgresql://127.0.0.1:1/lnp"), "doctor");
        assertEquals(1, unreachable.exit(), unreachable.out());
        assertTrue(unreachable.out().contains("FAIL  database: not reachable: ") && unreachable.out().contains("check lnp.database.url"),
                unreachable.out());
    }

    private static boolean schemaExists(Jdbi db, String schema) {
        return db.withHandle(h -> h.createQuery("SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = :s)")
                .bind("s", schema).mapTo(Boolean.class).one());
    }
}
