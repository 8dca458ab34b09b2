package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.database.migrations.Migrations;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A rolling upgrade of two nodes on one database: version N+1 applies a migration marked compatible
 * ({@code V<n>__compatible_<what>.sql}) while a node of version N serves, and N keeps serving and can even
 * restart; a migration not marked so makes a node of version N refuse to start. The "next versions" of the probe
 * plugin are its scripts plus test/resources db/migration/probe-next (compatible) and probe-breaking (not).
 */
@PlatformTest(plugins = "probe")
class RollingUpgradeTest {

    @Test
    void anOlderNodeKeepsServingBesideACompatibleMigrationAndRefusesAnIncompatibleOne(TestPlatform nodeN) {
        String key = nodeN.fullAccessKey(nodeN.createWorkspace("rolling"));
        assertEquals(201, nodeN.post("/api/v1/probe/items", key, "{\"name\":\"before\"}").status());
        var migrations = new Migrations(nodeN.platform().database().dataSource(), nodeN.jdbi());

        // Version N+1 migrates the shared database while node N serves.
        migrations.migrateProtectedPlugin("probe-next", "probe", getClass().getClassLoader());
        assertEquals(201, nodeN.post("/api/v1/probe/items", key, "{\"name\":\"during\"}").status());
        assertEquals(2, nodeN.get("/api/v1/probe/items", key).json().path("pagination").path("total").asInt());

        // A node of version N (re)starting on that database runs beside it.
        try (TestPlatform secondN = TestPlatform.startOn(nodeN, List.of("probe"), Map.of())) {
            assertEquals(200, secondN.get("/api/v1/probe/items", key).status());
            assertEquals(201, secondN.post("/api/v1/probe/items", key, "{\"name\":\"second node\"}").status());
        }

        // A version that renames a column N still uses: N refuses to start, naming the migration.
        migrations.migrateProtectedPlugin("probe-breaking", "probe", getClass().getClassLoader());
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> TestPlatform.startOn(nodeN, List.of("probe"), Map.of()).close());
        assertTrue(refused.getMessage().contains("probe V3 rename kind")
                && refused.getMessage().contains("run that version or a newer one"), refused.getMessage());
        assertTrue(!refused.getMessage().contains("V2"), "a compatible migration is not a reason: " + refused.getMessage());
    }
}
