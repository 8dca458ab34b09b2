package dev.lnp.embedded.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class EmbeddedPostgresTest {

    private Path base;

    // Not @TempDir: JUnit makes it 0700, which 'nobody' cannot traverse when the tests run as root.
    @BeforeEach
    void createBase() throws IOException {
        base = Files.createTempDirectory(Path.of("/tmp"), "lnp-epg-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    }

    @AfterEach
    void deleteBase() throws IOException {
        try (Stream<Path> s = Files.walk(base)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Test
    void dataSurvivesRestart() throws SQLException {
        try (EmbeddedPostgres pg = EmbeddedPostgres.start(base)) {
            try (Connection c = connect(pg); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE note (id int PRIMARY KEY, text text)");
                s.execute("INSERT INTO note VALUES (1, 'kept')");
            }
        }
        try (EmbeddedPostgres pg = EmbeddedPostgres.start(base);
             Connection c = connect(pg); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT text FROM note WHERE id = 1")) {
            assertTrue(rs.next());
            assertEquals("kept", rs.getString(1));
        }
    }

    @Test
    void serverDoesNotRunAsRoot() throws Exception {
        try (EmbeddedPostgres pg = EmbeddedPostgres.start(base)) {
            String pid = Files.readAllLines(base.resolve("pgsql/data/postmaster.pid")).get(0).trim();
            String user = run("ps", "-o", "user=", "-p", pid);
            assertNotEquals("", user);
            assertNotEquals("root", user);
            if (run("id", "-u").equals("0")) {
                assertEquals("nobody", user);
            }
            try (Connection c = connect(pg); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT current_user")) {
                assertTrue(rs.next());
                assertEquals("postgres", rs.getString(1));
            }
        }
    }

    @Test
    void secondStartReusesRunningServer() throws SQLException {
        try (EmbeddedPostgres first = EmbeddedPostgres.start(base)) {
            // Same as a restart after kill -9 of the JVM: the postmaster outlived its owner.
            EmbeddedPostgres second = EmbeddedPostgres.start(base);
            assertEquals(first.port(), second.port());
            assertEquals(first.jdbcUrl(), second.jdbcUrl());
            second.createDatabaseIfMissing("lnp");
            second.createDatabaseIfMissing("lnp");
            try (Connection c = DriverManager.getConnection(first.jdbcUrl("lnp"), first.username(), "")) {
                assertTrue(c.isValid(5));
            }
        }
    }

    @Test
    void untraversableParentIsNamed() throws Exception {
        assumeTrue(run("id", "-u").equals("0"), "only relevant when the JVM runs as root");
        Path closed = Files.createDirectory(base.resolve("closed"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> EmbeddedPostgres.start(closed.resolve("app")));
        assertTrue(e.getMessage().contains(closed.toString()), e.getMessage());
    }

    private static Connection connect(EmbeddedPostgres pg) throws SQLException {
        return DriverManager.getConnection(pg.jdbcUrl(), pg.username(), "");
    }

    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor();
        return out;
    }
}
