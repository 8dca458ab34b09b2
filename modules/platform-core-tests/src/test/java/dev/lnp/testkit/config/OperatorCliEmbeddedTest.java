package dev.lnp.testkit.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.cli.Main;
import dev.lnp.embedded.postgres.EmbeddedPostgres;
import dev.lnp.testkit.ScratchDirs;
import java.nio.file.Path;
import java.sql.DriverManager;
import org.junit.jupiter.api.Test;

/** An operator command beside a running platform uses its embedded database and leaves it running. */
class OperatorCliEmbeddedTest {

    @Test
    void theCliReusesTheRunningEmbeddedServerAndDoesNotStopIt() throws Exception {
        Path dir = ScratchDirs.create("lnp-cli");
        EmbeddedPostgres server = EmbeddedPostgres.start(dir);
        try {
            System.setProperty("lnp.data.dir", dir.toString());
            System.setProperty("lnp.plugins.dir", "target/no-plugins");
            assertEquals(0, Main.run("workspace", "create", "--name", "Beside", "--owner-email", "o@beside.test"));
            assertTrue(server.startedHere());
            try (var connection = DriverManager.getConnection(server.jdbcUrl("lnp"), server.username(), "")) {
                assertTrue(connection.isValid(2), "the server's database is still up after the command");
                var rs = connection.createStatement().executeQuery("SELECT count(*) FROM lnp_core.workspaces");
                rs.next();
                assertEquals(1, rs.getInt(1));
            }
        } finally {
            System.clearProperty("lnp.data.dir");
            System.clearProperty("lnp.plugins.dir");
            server.stop();
        }
    }
}
