package dev.lnp.testkit.webhooks;

import static dev.lnp.testkit.WebhookReceiver.await;
import static dev.lnp.testkit.webhooks.Hooks.seconds;
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
import dev.lnp.testkit.WebhookReceiver.Reply;
import dev.lnp.testkit.WebhookReceiver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL stops in the middle of a burst of concurrent writes (with a webhook subscription)
 * and starts again. During the outage writes are refused 503 problem+json quickly and readiness is DOWN; both
 * recover by themselves; every acknowledged write is stored and every stored event delivered under one delivery
 * id. A private embedded PostgreSQL, never the shared one. Prints the books and the 503 latency.
 */
class DatabaseOutageAccountingTest {

    static final int WRITERS = 4;

    @Test
    void anOutageDuringWritesLosesNothingAndIsAnsweredQuickly() throws Exception {
        Path dir = ScratchDirs.create("lnp-pg-outage-books");
        EmbeddedPostgres postgres = EmbeddedPostgres.start(dir);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try (var receiver = new WebhookReceiver()) {
            receiver.respond(r -> Reply.status(200).after(Duration.ofMillis(5)));
            postgres.createDatabaseIfMissing("lnp");
            var config = PlatformConfig.load(null, Map.of(), Map.of(
                    "lnp.database.url", postgres.jdbcUrl("lnp"), "lnp.database.user", postgres.username(),
                    "lnp.database.pool.size", "6", "lnp.http.port", "0", "lnp.management.port", "0",
                    "lnp.http.host", "127.0.0.1",
                    "lnp.webhooks.allowed_networks", "127.0.0.0/8", "lnp.webhooks.request_timeout_ms", "2000",
                    "lnp.webhooks.lease_seconds", "15", "lnp.webhooks.poll_interval_ms", "200"));
            var plugins = ClasspathPlugins.discover(getClass().getClassLoader(),
                    new PluginSelection(List.of("probe"), List.of()));
            try (Platform platform = Platform.start(config, plugins, () -> { })) {
                Jdbi jdbi = platform.database().jdbi();
                UUID ws = new Workspaces(jdbi).create("outage-books", "owner@example.com").id();
                String key = new Connections(jdbi, new ScopeCatalog(platform.registry()).all()).create(
                        new Connections.NewConnection(ws, "t", List.of(), ScopeCatalog.FULL_ACCESS, null, null)).key();
                var created = send(http, platform, key, "POST", "/api/v1/webhooks/subscriptions",
                        "{\"url\": \"" + receiver.url("/hook") + "\", \"events\": [\"probe.burst\"]}");
                assertEquals(201, created.statusCode(), created.body());

                WriteBurst burst = new WriteBurst(platform.port(), key, WRITERS);
                long downFor;
                long recoveredAfter;
                try {
                    await(seconds(30), "100 writes acknowledged", () -> burst.acknowledged.size() >= 100);
                    postgres.stop();
                    long stopped = System.nanoTime();
                    await(seconds(15), "writes refused with 503", () -> burst.outcomes.containsKey("503"));
                    assertEquals(503, send(http, platform, null, "GET", "/observe/health/ready", null).statusCode(),
                            "readiness DOWN during the outage");
                    int acknowledgedInOutage = burst.acknowledged.size();
                    Thread.sleep(3_000);
                    assertEquals(acknowledgedInOutage, burst.acknowledged.size(), "nothing acknowledged while down");
                    postgres.startAgain();
                    downFor = (System.nanoTime() - stopped) / 1_000_000;
                    long restarted = System.nanoTime();
                    await(seconds(30), "writes acknowledged again",
                            () -> burst.acknowledged.size() > acknowledgedInOutage + 20);
                    recoveredAfter = (System.nanoTime() - restarted) / 1_000_000;
                    await(seconds(30), "readiness UP again", () -> {
                        try {
                            return send(http, platform, null, "GET", "/observe/health/ready", null).statusCode() == 200;
                        } catch (Exception e) {
                            return false;
                        }
                    });
                } finally {
                    burst.close();
                }
                assertEquals(Set.of("201", "503"), burst.outcomes.keySet(), "only 201 and 503: " + burst.outcomes);
                assertEquals(0, burst.refusalsNotProblemJson.get(), "every 503 is problem+json");
                // The requests in flight when the database stops fail with it; those waiting for a pooled connection
                // stop waiting when the outage is known (not after the pool's 5 s connection timeout, as before), and
                // every later one is refused at once.
                assertTrue(burst.slowestRefusalMillis() < 3_000, "slowest 503 " + burst.slowestRefusalMillis() + " ms");
                assertTrue(burst.refusalsSlowerThan(1_000) <= WRITERS,
                        burst.refusalsSlowerThan(1_000) + " refusals took over a second");
                assertTrue(burst.medianRefusalMillis() < 500, "median 503 " + burst.medianRefusalMillis() + " ms");

                Ledger books = Ledger.settle(jdbi, ws, burst, receiver, seconds(60));
                System.out.printf("database outage during writes: attempted %d, acknowledged %d, stored %d, "
                                + "delivered %d, duplicates %d (same delivery id); outcomes %s; 503 median %d ms, "
                                + "slowest %d ms, %d over 1 s; down %d ms, writes acknowledged again %d ms after the restart%n",
                        books.attempted(), books.acknowledged(), books.stored(), books.delivered(), books.duplicates(),
                        burst.outcomes, burst.medianRefusalMillis(), burst.slowestRefusalMillis(),
                        burst.refusalsSlowerThan(1_000), downFor,
                        recoveredAfter);
            }
        } finally {
            postgres.stop();
        }
    }

    private static HttpResponse<String> send(HttpClient http, Platform platform, String key, String method,
            String path, String json) throws Exception {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + platform.port() + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
