package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.database.migrations.Migrations;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A restart on an up-to-date database reads each schema's history once and skips Flyway's migrate; these tests
 * pin that the short cut gives up none of migrate's checks: an applied script changed since (checksum) is still
 * refused, a new script is still applied, and the tenant role's grants and row-level security still hold.
 */
@PlatformTest(plugins = "probe")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RestartMigrationCheckTest {

    @Test
    void aStartedPlatformsSchemasAreUpToDateAndARestartKeepsThemSo(TestPlatform platform) {
        var migrations = migrations(platform);
        var probe = probe(platform);
        assertTrue(migrations.status(Migrations.Owner.core()).upToDate());
        assertTrue(migrations.status(probe).upToDate());

        try (TestPlatform restarted = TestPlatform.startOn(platform, List.of("probe"), Map.of())) {
            String key = restarted.fullAccessKey(restarted.createWorkspace("restart"));
            assertEquals(201, restarted.post("/api/v1/probe/items", key, "{\"name\":\"after restart\"}").status(),
                    "the tenant role can still write the plugin's tables");
        }
        assertTrue(migrations.status(probe).upToDate());
    }

    @Test
    void aScriptChangedAfterItWasAppliedIsStillRefusedOnRestart(TestPlatform platform) {
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE probe.flyway_history SET checksum = checksum + 1 WHERE version = '1'"));
        try {
            assertFalse(migrations(platform).status(probe(platform)).upToDate());
            RuntimeException refused = assertThrows(RuntimeException.class,
                    () -> TestPlatform.startOn(platform, List.of("probe"), Map.of()).close());
            assertTrue(refused.getMessage().toLowerCase().contains("checksum"), refused.getMessage());
        } finally {
            platform.jdbi().useHandle(h -> h.execute(
                    "UPDATE probe.flyway_history SET checksum = checksum - 1 WHERE version = '1'"));
        }
        assertTrue(migrations(platform).status(probe(platform)).upToDate());
    }

    @Test
    @Order(Integer.MAX_VALUE) // last: it moves the class's database to the probe plugin's next version
    void aNewScriptIsNotUpToDateAndIsAppliedByTheNextStart(TestPlatform platform) {
        var migrations = migrations(platform);
        // The next version of the probe plugin carries one more script (test resources db/migration/probe-next).
        var next = new Migrations.Owner("probe-next", "probe", getClass().getClassLoader());
        Migrations.Status before = migrations.status(next);
        assertFalse(before.upToDate());
        assertEquals(1, before.pending());

        migrations.preparePlugins(List.of(next));
        Migrations.Status after = migrations.status(next);
        assertTrue(after.upToDate());
        assertEquals("V2", after.current());
    }

    @Test
    void aFailedMigrationInTheHistoryIsNotUpToDate(TestPlatform platform) {
        platform.jdbi().useHandle(h -> h.execute("UPDATE probe.flyway_history SET success = false WHERE version = '1'"));
        try {
            assertFalse(migrations(platform).status(probe(platform)).upToDate());
        } finally {
            platform.jdbi().useHandle(h -> h.execute(
                    "UPDATE probe.flyway_history SET success = true WHERE version = '1'"));
        }
    }

    private static Migrations migrations(TestPlatform platform) {
        return new Migrations(platform.platform().database().dataSource(), platform.jdbi());
    }

    private Migrations.Owner probe(TestPlatform platform) {
        return new Migrations.Owner("probe", "probe", getClass().getClassLoader());
    }
}
