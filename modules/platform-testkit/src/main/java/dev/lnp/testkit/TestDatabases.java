package dev.lnp.testkit;

import dev.lnp.embedded.postgres.EmbeddedPostgres;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;
import java.util.UUID;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * A real PostgreSQL server for tests, chosen once per JVM: {@code LNP_TEST_DATABASE_URL} when set (CI),
 * else a Testcontainers PostgreSQL when Docker answers, else the embedded PostgreSQL the platform itself uses.
 * Each test class gets a database of its own on that server.
 */
public final class TestDatabases {

    private static final System.Logger LOG = System.getLogger(TestDatabases.class.getName());

    /** Where a server is, and how to reach one database on it. */
    public record Server(String baseUrl, String user, String password) {
        public String url(String database) {
            int slash = baseUrl.indexOf('/', "jdbc:postgresql://".length());
            int query = baseUrl.indexOf('?');
            String prefix = slash < 0 ? baseUrl : baseUrl.substring(0, slash);
            String params = query < 0 ? "" : baseUrl.substring(query);
            return prefix + "/" + database + params;
        }
    }

    private static Server server;

    private TestDatabases() {
    }

    public static synchronized Server server() {
        if (server == null) {
            server = startServer();
        }
        return server;
    }

    /** Creates a fresh, empty database and returns its JDBC URL. */
    public static String createDatabase(String hint) {
        Server s = server();
        String name = "lnp_t_" + hint.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "").substring(0,
                Math.min(20, hint.replaceAll("[^A-Za-z0-9]", "").length())) + "_"
                + UUID.randomUUID().toString().substring(0, 8);
        execute(s, s.url("postgres"), "CREATE DATABASE " + name);
        return s.url(name);
    }

    /**
     * The sessions still open on the database of {@code url}, waiting up to 5 s for them to end (a closed session
     * can take a moment to leave {@code pg_stat_activity}): 0 when a platform closed every connection it held.
     */
    public static long sessionsLeftOn(String url) throws SQLException, InterruptedException {
        Server server = server();
        String name = databaseName(url);
        long deadline = System.nanoTime() + 5_000_000_000L;
        long sessions;
        do {
            try (var c = DriverManager.getConnection(server.url("postgres"), server.user(), server.password());
                    var st = c.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE datname = ?")) {
                st.setString(1, name);
                try (var rs = st.executeQuery()) {
                    rs.next();
                    sessions = rs.getLong(1);
                }
            }
            if (sessions == 0) {
                return 0;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        return sessions;
    }

    public static void dropDatabase(String url) {
        Server s = server();
        String name = databaseName(url);
        try {
            execute(s, s.url("postgres"), "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not drop test database " + name, e);
        }
    }

    private static void execute(Server s, String url, String sql) {
        try (Connection c = DriverManager.getConnection(url, s.user(), s.password());
                var st = c.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("Test database: " + sql + " failed: " + e.getMessage(), e);
        }
    }

    private static Server startServer() {
        String url = System.getenv("LNP_TEST_DATABASE_URL");
        if (url != null && !url.isBlank()) {
            LOG.log(Level.INFO, "Tests use the PostgreSQL at LNP_TEST_DATABASE_URL");
            return new Server(url, env("LNP_TEST_DATABASE_USER", "postgres"), env("LNP_TEST_DATABASE_PASSWORD", ""));
        }
        if (dockerAnswers()) {
            // The generic container: the PostgreSQL module splits a package with the core jar on the module path.
            var container = new GenericContainer<>("postgres:17-alpine")
                    .withEnv("POSTGRES_PASSWORD", "test")
                    .withExposedPorts(5432)
                    .waitingFor(Wait.forLogMessage(".*database system is ready to accept connections.*\\n", 2));
            container.start();
            Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
            LOG.log(Level.INFO, "Tests use a Testcontainers PostgreSQL");
            return new Server("jdbc:postgresql://" + container.getHost() + ":" + container.getMappedPort(5432)
                    + "/postgres", "postgres", "test");
        }
        // One server per test JVM: a server shared between JVMs would be stopped by whichever exits first.
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "lnp-testkit-postgres-" + ProcessHandle.current().pid());
        try {
            Files.createDirectories(dir);
            // The embedded server may run as an unprivileged user, which must be able to enter this folder.
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("Cannot prepare " + dir, e);
        }
        EmbeddedPostgres embedded = EmbeddedPostgres.start(dir);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            embedded.stop();
            deleteQuietly(dir);
        }));
        LOG.log(Level.INFO, "Tests use the embedded PostgreSQL in " + dir);
        return new Server(embedded.jdbcUrl(), embedded.username(), "");
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException | RuntimeException e) {
            LOG.log(Level.DEBUG, "Could not delete " + dir, e);
        }
    }

    private static boolean dockerAnswers() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable e) {
            return false;
        }
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null ? fallback : v;
    }

    /** The database's name in a JDBC URL (its last path segment, without parameters). */
    private static String databaseName(String url) {
        return url.substring(url.lastIndexOf('/') + 1).replaceAll("\\?.*", "");
    }
}
