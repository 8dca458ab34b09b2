package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.core.Platform;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.testkit.TestDatabases;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Started on a port another process listens on, the platform stops with an error naming the port and releases
 * what it started (pool, plugins), instead of running on without a listener.
 */
class PortInUseTest {

    private static Map<String, String> config(String url, int port) {
        return config(url, port, 0);
    }

    private static Map<String, String> config(String url, int port, int managementPort) {
        TestDatabases.Server server = TestDatabases.server();
        return Map.of("lnp.database.url", url, "lnp.database.user", server.user(),
                "lnp.database.password", server.password(), "lnp.http.host", "127.0.0.1",
                "lnp.http.port", Integer.toString(port), "lnp.management.host", "127.0.0.1",
                "lnp.management.port", Integer.toString(managementPort), "lnp.plugins.dir", "target/no-plugins",
                "lnp.webhooks.dispatch", "false");
    }

    private static ServerSocket occupy() throws Exception {
        ServerSocket taken = new ServerSocket();
        taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return taken;
    }

    /**
     * The sessions still open on the test's database, once every backend the closed pool let go of has ended: a
     * backend leaves {@code pg_stat_activity} only when its process exits, a moment after the client closed its
     * connection (on a busy machine, long enough for one to be counted). A connection left open stays: after ten
     * seconds it is reported, with what it last ran.
     */
    private static List<String> sessionsLeftOn(String url) throws Exception {
        TestDatabases.Server server = TestDatabases.server();
        String name = url.substring(url.lastIndexOf('/') + 1).replaceAll("\\?.*", "");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try (Connection c = DriverManager.getConnection(server.url("postgres"), server.user(), server.password());
                var statement = c.prepareStatement(
                        "SELECT application_name || ' ' || state || ': ' || query FROM pg_stat_activity WHERE datname = ?")) {
            statement.setString(1, name);
            while (true) {
                List<String> sessions = new ArrayList<>();
                try (ResultSet rs = statement.executeQuery()) {
                    while (rs.next()) {
                        sessions.add(rs.getString(1));
                    }
                }
                if (sessions.isEmpty() || System.nanoTime() > deadline) {
                    return sessions;
                }
                Thread.sleep(50);
            }
        }
    }

    @Test
    void startFailsNamingThePortAndReleasesThePoolAndPlugins() throws Exception {
        String url = TestDatabases.createDatabase("port-in-use");
        try (ServerSocket taken = occupy()) {
            int port = taken.getLocalPort();
            AtomicBoolean unloaded = new AtomicBoolean();
            RuntimeException e = assertThrows(RuntimeException.class, () -> Platform.start(
                    PlatformConfig.load(null, Map.of(), config(url, port)), List.of(), () -> unloaded.set(true)));
            assertTrue(e.getMessage().contains("port " + port), e.getMessage());
            assertTrue(e.getMessage().toLowerCase().contains("in use"), e.getMessage());
            assertTrue(unloaded.get(), "plugins are unloaded");
            assertEquals(List.of(), sessionsLeftOn(url), "the connection pool is closed");
        } finally {
            TestDatabases.dropDatabase(url);
        }
    }

    @Test
    void serveExitsNonZeroWithOneErrorLineInsteadOfRunningWithoutAListener() throws Exception {
        String url = TestDatabases.createDatabase("serve-port-in-use");
        try (ServerSocket taken = occupy()) {
            int port = taken.getLocalPort();
            String error = serveFailingWithOneErrorLine(url, config(url, port));
            assertTrue(error.contains("port " + port + " (lnp.http.port"), error);
            assertTrue(error.contains("LNP_HTTP_PORT"), "says how to give this node another port: " + error);
        } finally {
            TestDatabases.dropDatabase(url);
        }
    }

    /** A second node on one host: its HTTP port is free, the metrics listener's (default 9464) is not. */
    @Test
    void aTakenManagementPortIsNamedAsSuchNotAsTheHttpPort() throws Exception {
        String url = TestDatabases.createDatabase("serve-management-port-in-use");
        try (ServerSocket taken = occupy()) {
            int port = taken.getLocalPort();
            String error = serveFailingWithOneErrorLine(url, config(url, 0, port));
            assertTrue(error.contains("port " + port + " (lnp.management.port"), error);
            assertFalse(error.contains("lnp.http.port"), error);
            assertTrue(error.contains("LNP_MANAGEMENT_PORT"), "says how to give this node another port: " + error);
        } finally {
            TestDatabases.dropDatabase(url);
        }
    }

    /**
     * Runs {@code serve} with this configuration: it must exit 1 with exactly one {@code error:} line, no stack
     * trace and no SEVERE line before it, and leave no database session behind. Returns the error line.
     */
    private static String serveFailingWithOneErrorLine(String url, Map<String, String> config) throws Exception {
        String java = ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path")));
        config.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.addAll(List.of("dev.lnp.cli.Main", "serve"));
        Path log = Files.createTempFile("serve-port-in-use", ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
        boolean exited = process.waitFor(120, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly().waitFor();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        Files.delete(log);
        assertTrue(exited, "serve kept running without a listener:\n" + out);
        assertEquals(1, process.exitValue(), out);
        List<String> errors = out.lines().filter(l -> l.startsWith("error: ")).toList();
        assertEquals(1, errors.size(), out);
        assertFalse(out.contains("SEVERE") || out.contains("\\tat ") || out.contains("\tat "),
                "one error line, no stack trace:\n" + out);
        assertFalse(out.contains("listening on http://localhost:-1") || out.contains("ready on port -1"), out);
        assertEquals(List.of(), sessionsLeftOn(url), "the connection pool is closed");
        return errors.get(0);
    }
}
