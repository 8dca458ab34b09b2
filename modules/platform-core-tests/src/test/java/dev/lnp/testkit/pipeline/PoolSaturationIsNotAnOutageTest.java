package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.database.Database;
import dev.lnp.database.DatabaseOutage;
import dev.lnp.testkit.TestDatabases;
import java.net.ServerSocket;
import java.sql.Connection;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A request that waited out the pool's timeout because every pooled connection was busy fails like one whose
 * database is gone. Only the second is an outage: declaring one for the first answered 503 to every request for
 * seconds while the database was there (the benchmark's slow counts).
 */
class PoolSaturationIsNotAnOutageTest {

    @Test
    void aSaturatedPoolWhoseDatabaseAnswersIsNotDeclaredAnOutage() throws Exception {
        var server = TestDatabases.server();
        try (Database database = Database.connect(server.url("postgres"), Optional.of(server.user()),
                Optional.ofNullable(server.password()), 2);
                DatabaseOutage outage = new DatabaseOutage(database);
                Connection first = database.dataSource().getConnection();
                Connection second = database.dataSource().getConnection()) {
            assertTrue(first.isValid(1) && second.isValid(1), "both pooled connections held");
            outage.reportUnreachable();
            assertFalse(outage.isDown(), "the database answers outside the pool: a busy pool, not an outage");
        }
    }

    @Test
    void aDatabaseThatRefusesConnectionsIsDeclaredAnOutage() throws Exception {
        int closedPort;
        try (var socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        try (Database database = Database.connect("jdbc:postgresql://127.0.0.1:" + closedPort + "/none",
                Optional.of("nobody"), Optional.empty(), 2);
                DatabaseOutage outage = new DatabaseOutage(database)) {
            outage.reportUnreachable();
            assertTrue(outage.isDown(), "no connection of its own either: the database is gone");
        }
    }
}
