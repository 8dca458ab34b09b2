package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.core.Platform;
import dev.lnp.core.auth.Connections;
import dev.lnp.core.auth.ScopeCatalog;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.embedded.postgres.EmbeddedPostgres;
import dev.lnp.core.plugins.ClasspathPlugins;
import dev.lnp.core.plugins.PluginSelection;
import dev.lnp.core.tenancy.Workspaces;
import dev.lnp.testkit.ScratchDirs;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/**
 * A PostgreSQL outage: the first failure marks the database down, later requests answer 503
 * at once, a request cut off mid-flight gets 503 too, and all recover by themselves. A private embedded
 * PostgreSQL, never the shared one.
 */
class DatabaseOutageTest {

    @Test
    void anOutageIsAnswered503QuicklyAndRecoversByItself() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try (Outage outage = Outage.start(4)) {
            EmbeddedPostgres postgres = outage.postgres();
            Platform platform = outage.platform();
            String key = outage.key();
            assertEquals(200, get(http, platform, key, "/api/v1/probe/items").statusCode());

            // A request in flight (1.5 s between its two statements) when the database goes away.
            CompletableFuture<HttpResponse<String>> inFlight = CompletableFuture.supplyAsync(() -> {
                try {
                    return get(http, platform, key, "/api/v1/probe/slow");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(500);
            postgres.stop();
            HttpResponse<String> cut = inFlight.get();
            assertEquals(503, cut.statusCode(), "a request cut off mid-flight: " + cut.body());
            assertTrue(cut.body().contains("database_unavailable"), cut.body());

            get(http, platform, key, "/api/v1/probe/items"); // the failure that marks the database down
            long slowest = 0;
            for (int i = 0; i < 10; i++) {
                long started = System.nanoTime();
                HttpResponse<String> response = get(http, platform, key, "/api/v1/probe/items");
                slowest = Math.max(slowest, (System.nanoTime() - started) / 1_000_000);
                assertEquals(503, response.statusCode(), response.body());
                assertEquals("5", response.headers().firstValue("Retry-After").orElse(""));
                assertTrue(response.headers().firstValue("Content-Type").orElse("")
                        .startsWith("application/problem+json"));
            }
            assertTrue(slowest < 1000, "503 at once while the database is down, slowest " + slowest + " ms");
            assertEquals(503, get(http, platform, null, "/observe/health/ready").statusCode(), "readiness DOWN");

            postgres.startAgain();
            long recovered = awaitRecovery(http, platform, key);
            assertEquals(200, get(http, platform, null, "/observe/health/ready").statusCode());
            System.out.printf("database outage: 503 within %d ms at worst; recovered %d ms after the restart%n",
                    slowest, recovered);
        }
    }

    /**
     * A request waiting for a pooled connection when the database goes away is answered 503 as soon as the outage
     * is known, not after the pool's 5 s connection timeout; and with nothing in flight, the first request after
     * the database went away is answered 503 at once (the pool failing to open a connection reports the outage).
     */
    @Test
    void requestsWaitingForAConnectionAreAnswered503WithoutWaitingOutThePool() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try (Outage outage = Outage.start(2)) {
            EmbeddedPostgres postgres = outage.postgres();
            Platform platform = outage.platform();
            String key = outage.key();
            assertEquals(200, get(http, platform, key, "/api/v1/probe/items").statusCode());

            // Four requests holding a connection for 1.5 s on a pool of two: two hold the connections, two wait.
            List<CompletableFuture<Long>> requests = new java.util.ArrayList<>();
            var stoppedAt = new java.util.concurrent.atomic.AtomicLong();
            for (int i = 0; i < 4; i++) {
                requests.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        HttpResponse<String> response = get(http, platform, key, "/api/v1/probe/slow");
                        assertEquals(503, response.statusCode(), response.body());
                        assertTrue(response.body().contains("database_unavailable"), response.body());
                        return (System.nanoTime() - stoppedAt.get()) / 1_000_000;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (platform.database().requestsWaitingForConnection() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            // At least the two requests: a plugin's background worker (event subscriptions, chat runs) may wait too.
            int waiting = platform.database().requestsWaitingForConnection();
            assertTrue(waiting >= 2, "two requests wait for the pool, saw " + waiting);
            stoppedAt.set(System.nanoTime());
            postgres.stop();
            long slowest = 0;
            for (var request : requests) {
                slowest = Math.max(slowest, request.get());
            }
            // The holders fail at their second statement, 1.5 s in; the waiters with them, not 5 s after they
            // began.
            assertTrue(slowest < 3_000, "every request answered within 3 s of the outage, slowest " + slowest
                    + " ms after the database stopped");
            postgres.startAgain();
            awaitRecovery(http, platform, key);

            // Nothing in flight: the first request after the database went away does not wait out the pool.
            postgres.stop();
            long started = System.nanoTime();
            HttpResponse<String> first = get(http, platform, key, "/api/v1/probe/items");
            long firstMillis = (System.nanoTime() - started) / 1_000_000;
            assertEquals(503, first.statusCode(), first.body());
            assertTrue(firstMillis < 1_500, "the first request after an idle outage took " + firstMillis + " ms");
            System.out.printf("database outage, pool of 2: the waiting requests answered 503 within %d ms of the "
                    + "stop; the first request after an idle outage within %d ms%n", slowest, firstMillis);
        }
    }

    /** A platform with the probe plugin on a private embedded PostgreSQL (never the shared one), and a key. */
    private record Outage(EmbeddedPostgres postgres, Platform platform, String key) implements AutoCloseable {

        static Outage start(int poolSize) throws Exception {
            Path dir = ScratchDirs.create("lnp-pg-outage");
            EmbeddedPostgres postgres = EmbeddedPostgres.start(dir);
            try {
                postgres.createDatabaseIfMissing("lnp");
                var config = PlatformConfig.load(null, Map.of(), Map.of(
                        "lnp.database.url", postgres.jdbcUrl("lnp"), "lnp.database.user", postgres.username(),
                        "lnp.database.pool.size", String.valueOf(poolSize), "lnp.http.port", "0",
                        "lnp.http.host", "127.0.0.1", "lnp.management.port", "0"));
                var plugins = ClasspathPlugins.discover(DatabaseOutageTest.class.getClassLoader(),
                        new PluginSelection(List.of("probe"), List.of()));
                Platform platform = Platform.start(config, plugins, () -> { });
                Jdbi jdbi = platform.database().jdbi();
                UUID ws = new Workspaces(jdbi).create("outage", "owner@example.com").id();
                String key = new Connections(jdbi, new ScopeCatalog(platform.registry()).all()).create(
                        new Connections.NewConnection(ws, "t", List.of(), ScopeCatalog.FULL_ACCESS, null, null)).key();
                return new Outage(postgres, platform, key);
            } catch (Exception | Error e) {
                postgres.stop();
                throw e;
            }
        }

        @Override
        public void close() {
            try {
                platform.close();
            } finally {
                postgres.stop();
            }
        }
    }

    /** Polls until requests are answered 200 again (at most 30 s); returns how long that took. */
    private static long awaitRecovery(HttpClient http, Platform platform, String key) throws Exception {
        long back = System.nanoTime();
        int status = 0;
        while (System.nanoTime() - back < 30_000_000_000L) {
            status = get(http, platform, key, "/api/v1/probe/items").statusCode();
            if (status == 200) {
                return (System.nanoTime() - back) / 1_000_000;
            }
            Thread.sleep(100);
        }
        assertEquals(200, status, "requests recover by themselves");
        return -1;
    }

    private static HttpResponse<String> get(HttpClient http, Platform platform, String key, String path)
            throws Exception {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + platform.port() + path))
                .timeout(Duration.ofSeconds(30));
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
