package dev.lnp.database.migrations;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The platform migrates PostgreSQL only: Flyway's other database modules are not shipped. */
class FlywayModulesTest {

    private static String runtimePath() {
        return String.join(java.io.File.pathSeparator, Stream.of("jdk.module.path", "java.class.path")
                .map(name -> System.getProperty(name, "")).toList());
    }

    @Test
    void onlyThePostgresqlModuleOfFlywayIsOnThePath() {
        String path = runtimePath();
        assertTrue(path.contains("flyway-database-postgresql"), path);
        assertFalse(path.contains("flyway-database-cockroachdb"),
                "flyway-database-postgresql brings CockroachDB along unless excluded: " + path);
    }
}
