package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.PluginContext;
import dev.lnp.api.Registrar;
import dev.lnp.core.Platform;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.embedded.postgres.EmbeddedPostgres;
import dev.lnp.core.plugins.LoadedPlugin;
import dev.lnp.testkit.ScratchDirs;
import dev.lnp.testkit.TestDatabases;
import dev.lnp.testkit.TestPlatform;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class PlatformLifecycleTest {

    private final HttpClient http = HttpClient.newHttpClient();

    private int get(int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void readinessFailsWhileTheDatabaseIsDown() throws Exception {
        Path dir = ScratchDirs.create("lnp-ready");
        EmbeddedPostgres postgres = EmbeddedPostgres.start(dir);
        try {
            postgres.createDatabaseIfMissing("lnp");
            var config = PlatformConfig.load(null, Map.of(), Map.of(
                    "lnp.database.url", postgres.jdbcUrl("lnp"), "lnp.database.user", postgres.username(),
                    "lnp.http.port", "0", "lnp.http.host", "127.0.0.1", "lnp.management.port", "0"));
            try (Platform platform = Platform.start(config, List.of(), () -> { })) {
                assertEquals(200, get(platform.port(), "/observe/health/ready"));
                postgres.stop();
                long started = System.nanoTime();
                assertEquals(503, get(platform.port(), "/observe/health/ready"));
                assertTrue(System.nanoTime() - started < 3_000_000_000L, "the probe answers quickly");
                assertEquals(200, get(platform.port(), "/observe/health/live"), "alive, though not ready");
            }
        } finally {
            postgres.stop();
        }
    }

    @Test
    void shutdownLetsRequestsInFlightFinish() throws Exception {
        TestPlatform platform = TestPlatform.start("drain", List.of("probe"), null, Map.of());
        String key = platform.fullAccessKey(platform.createWorkspace("drain"));
        CompletableFuture<Integer> slow = CompletableFuture.supplyAsync(
                () -> platform.get("/api/v1/probe/slow", key).status());
        Thread.sleep(300);
        platform.close();
        assertEquals(200, slow.get(), "the request that was running when shutdown began completed");
    }

    @Test
    void thePlatformRefusesAPluginWhoseWorkspaceTableLacksRowLevelSecurity() {
        String url = TestDatabases.createDatabase("norls");
        try {
            var server = TestDatabases.server();
            var config = PlatformConfig.load(null, Map.of(), Map.of("lnp.database.url", url,
                    "lnp.database.user", server.user(), "lnp.database.password", server.password(),
                    "lnp.http.port", "0"));
            PlatformPlugin careless = registrar -> registrar.migrations("careless");
            var plugin = new LoadedPlugin("careless", "1.0", List.of(), careless,
                    new NoRlsMigrations(getClass().getClassLoader()), "test");
            var failure = assertThrows(IllegalStateException.class, () -> Platform.start(config, List.of(plugin), () -> { }));
            assertTrue(failure.getMessage().contains("row-level security"), failure.getMessage());
            assertTrue(failure.getMessage().contains("notes"), failure.getMessage());
        } finally {
            TestDatabases.dropDatabase(url);
        }
    }

    @Test
    void aStartThatFailsHalfwayClosesWhatItHadStartedLastFirst() throws Exception {
        String url = TestDatabases.createDatabase("halfway");
        try {
            var server = TestDatabases.server();
            var config = PlatformConfig.load(null, Map.of(), Map.of("lnp.database.url", url,
                    "lnp.database.user", server.user(), "lnp.database.password", server.password(),
                    "lnp.http.port", "0", "lnp.management.port", "0"));
            List<String> events = new CopyOnWriteArrayList<>();
            var first = plugin("first", events, () -> {
                events.add("first stopped");
                throw new IllegalStateException("first fails to stop");
            });
            var second = plugin("second", events, () -> events.add("second stopped"));
            var broken = new LoadedPlugin("broken", "1.0", List.of(), new PlatformPlugin() {
                @Override
                public void register(Registrar registrar) {
                }

                @Override
                public void start(PluginContext context) {
                    throw new IllegalStateException("broken cannot start");
                }
            }, getClass().getClassLoader(), "test");

            var failure = assertThrows(IllegalStateException.class, () -> Platform.start(config,
                    List.of(first, second, broken), () -> events.add("class loaders unloaded")));

            assertEquals("broken cannot start", failure.getMessage());
            assertEquals(List.of("first started", "second started", "second stopped", "first stopped",
                    "class loaders unloaded"), events, "stopped in reverse, past a plugin that failed to stop");
            assertEquals(0, TestDatabases.sessionsLeftOn(url), "the pool and every other connection were closed");
        } finally {
            TestDatabases.dropDatabase(url);
        }
    }

    private LoadedPlugin plugin(String id, List<String> events, Runnable stop) {
        return new LoadedPlugin(id, "1.0", List.of(), new PlatformPlugin() {
            @Override
            public void register(Registrar registrar) {
            }

            @Override
            public void start(PluginContext context) {
                events.add(id + " started");
            }

            @Override
            public void stop() {
                stop.run();
            }
        }, getClass().getClassLoader(), "test");
    }

    /** Serves one migration, a workspace table without row-level security, from memory. */
    private static final class NoRlsMigrations extends ClassLoader {
        private final Path dir;

        NoRlsMigrations(ClassLoader parent) {
            super(parent);
            try {
                dir = ScratchDirs.create("careless");
                Path scripts = Files.createDirectories(dir.resolve("db/migration/careless"));
                Files.writeString(scripts.resolve("V1__notes.sql"),
                        "CREATE TABLE notes (id uuid PRIMARY KEY, workspace_id uuid NOT NULL, body text);");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        protected java.net.URL findResource(String name) {
            Path file = dir.resolve(name);
            try {
                return Files.exists(file) ? file.toUri().toURL() : null;
            } catch (java.net.MalformedURLException e) {
                return null;
            }
        }

        @Override
        protected java.util.Enumeration<java.net.URL> findResources(String name) {
            java.net.URL url = findResource(name);
            return java.util.Collections.enumeration(url == null ? List.of() : List.of(url));
        }
    }
}
