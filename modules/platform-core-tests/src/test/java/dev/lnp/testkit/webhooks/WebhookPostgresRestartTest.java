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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL stops in the middle of a batch of deliveries and comes back: every committed event still arrives.
 * The server is a private embedded PostgreSQL, never the shared one other tests use.
 */
class WebhookPostgresRestartTest {

    static final int EVENTS = 2_000;

    @Test
    void aDatabaseRestartMidBatchLosesNothing() throws Exception {
        Path dir = ScratchDirs.create("lnp-pg-restart");
        EmbeddedPostgres postgres = EmbeddedPostgres.start(dir);
        HttpClient http = HttpClient.newHttpClient();
        try (var receiver = new WebhookReceiver()) {
            receiver.respond(r -> Reply.status(200).after(Duration.ofMillis(5)));
            postgres.createDatabaseIfMissing("lnp");
            var config = PlatformConfig.load(null, Map.of(), Map.of(
                    "lnp.database.url", postgres.jdbcUrl("lnp"), "lnp.database.user", postgres.username(),
                    "lnp.database.pool.size", "8", "lnp.http.port", "0", "lnp.management.port", "0",
                    "lnp.http.host", "127.0.0.1",
                    "lnp.webhooks.allowed_networks", "127.0.0.0/8", "lnp.webhooks.request_timeout_ms", "2000",
                    "lnp.webhooks.lease_seconds", "15", "lnp.webhooks.poll_interval_ms", "200"));
            var plugins = ClasspathPlugins.discover(getClass().getClassLoader(), new PluginSelection(List.of("probe"), List.of()));
            try (Platform platform = Platform.start(config, plugins, () -> { })) {
                Jdbi jdbi = platform.database().jdbi();
                UUID ws = new Workspaces(jdbi).create("restart", "owner@example.com").id();
                String key = new Connections(jdbi, new ScopeCatalog(platform.registry()).all()).create(
                        new Connections.NewConnection(ws, "t", List.of(), ScopeCatalog.FULL_ACCESS, null, null)).key();
                var created = send(http, platform, key, "/api/v1/webhooks/subscriptions",
                        "{\"url\": \"" + receiver.url("/hook") + "\", \"events\": [\"probe.burst\"]}");
                assertEquals(201, created.statusCode(), created.body());
                for (int i = 0; i < EVENTS / 500; i++) {
                    var published = send(http, platform, key, "/api/v1/probe/events", "{\"count\": 500}");
                    assertEquals(201, published.statusCode(), published.body());
                }
                Set<String> committed = new HashSet<>(jdbi.withHandle(h -> h.createQuery(
                        "SELECT id::text FROM lnp_core.outbox WHERE workspace_id = :ws").bind("ws", ws)
                        .mapTo(String.class).list()));
                assertEquals(EVENTS, committed.size());

                await(seconds(60), "a few hundred delivered", () -> receiver.received().size() >= 300);
                postgres.stop();
                int atStop = receiver.received().size();
                Thread.sleep(3_000);
                int whileDown = receiver.received().size() - atStop;
                postgres.startAgain();
                assertTrue(atStop < EVENTS, "the database stopped mid-batch (" + atStop + " of " + EVENTS + ")");

                await(seconds(180), "every delivery recorded as delivered", () -> {
                    try {
                        return Hooks.count(jdbi, "SELECT count(*) FROM lnp_core.webhook_deliveries "
                                + "WHERE workspace_id = ? AND state = 'delivered'", ws) == EVENTS;
                    } catch (RuntimeException databaseNotBackYet) {
                        return false;
                    }
                });
                Set<String> arrived = new HashSet<>();
                receiver.received().forEach(r -> arrived.add(r.json().path("event_id").asText()));
                assertEquals(committed, arrived, "every committed event arrived");
                assertEquals(0, receiver.overlaps(), "no delivery was in flight twice at once");
                int duplicates = receiver.received().size() - EVENTS;
                System.out.printf("PostgreSQL restart: %d delivered before the stop, %d answered while it was down, "
                        + "%d repeated deliveries (same id) out of %d%n", atStop, whileDown, duplicates, EVENTS);
            }
        } finally {
            postgres.stop();
        }
    }

    private static HttpResponse<String> send(HttpClient http, Platform platform, String key, String path, String json)
            throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + platform.port() + path))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
