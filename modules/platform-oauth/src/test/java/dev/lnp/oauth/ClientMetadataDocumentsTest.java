package dev.lnp.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.lnp.api.outbound.OutboundGuard;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Client metadata documents fetched over real HTTP from a document server on the loopback interface, which the
 * operator setting lets in: a valid document, one naming another client_id, a redirect it does not list, the
 * loopback refused without the setting, a document too large, one too slow, and HTTP caching.
 */
class ClientMetadataDocumentsTest {

    private static final List<String> LOOPBACK = List.of("127.0.0.0/8");

    private HttpServer server;
    private String base;
    private final AtomicInteger fetches = new AtomicInteger();
    private volatile String body;
    private volatile String cacheControl;
    private volatile long delayMillis;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            fetches.incrementAndGet();
            try {
                Thread.sleep(delayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            if (cacheControl != null) {
                exchange.getResponseHeaders().set("Cache-Control", cacheControl);
            }
            exchange.sendResponseHeaders(200, bytes.length);
            try (var out = exchange.getResponseBody()) {
                out.write(bytes);
            } catch (IOException closedByTheClient) {
                // The timeout case: the platform hung up first.
            }
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String document(String clientId, String redirect) {
        return "{\"client_id\":\"" + clientId + "\",\"client_name\":\"Desk assistant\",\"redirect_uris\":[\""
                + redirect + "\"],\"token_endpoint_auth_method\":\"none\"}";
    }

    private static ClientMetadataDocuments documents(List<String> allowed, Clock clock) {
        return new ClientMetadataDocuments(platformGuard(), allowed, Duration.ofMillis(700), clock);
    }

    /**
     * The platform's real guard. Its module exports nothing (plugins and subsystems get the guard as a service), so
     * the test, which runs on the class path, reaches its class by name.
     */
    private static OutboundGuard platformGuard() {
        try {
            return (OutboundGuard) Class.forName("dev.lnp.outbound.PlatformOutboundGuard")
                    .getMethod("allowing", List.class).invoke(null, List.of());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aValidDocumentGivesItsClientWithTheHostBesideTheName() {
        String url = base + "/client.json";
        body = document(url, "http://127.0.0.1:4711/callback");
        var outcome = documents(LOOPBACK, Clock.systemUTC()).resolve(url);
        Clients.Client client = assertInstanceOf(ClientMetadataDocuments.Outcome.Found.class, outcome).client();
        assertEquals(url, client.clientId());
        assertEquals("Desk assistant (127.0.0.1)", client.name());
        assertTrue(client.redirectUri("http://127.0.0.1:4711/callback").isPresent());
        // A redirect the document does not list is not the client's: the authorization request is refused on a page.
        assertTrue(client.redirectUri("https://attacker.example/callback").isEmpty());
    }

    @Test
    void aDocumentNamingAnotherClientIdIsRefused() {
        String url = base + "/client.json";
        body = document(base + "/other.json", "http://127.0.0.1:4711/callback");
        assertUnusable(documents(LOOPBACK, Clock.systemUTC()).resolve(url), "another client_id");
    }

    @Test
    void unacceptableRedirectsAndSecretsAreRefused() {
        String url = base + "/client.json";
        body = document(url, "http://assistant.example/callback");
        assertUnusable(documents(LOOPBACK, Clock.systemUTC()).resolve(url), "redirect URI");
        body = "{\"client_id\":\"" + url + "\",\"redirect_uris\":[]}";
        assertUnusable(documents(LOOPBACK, Clock.systemUTC()).resolve(url), "1 to 10 redirect_uris");
        body = "{\"client_id\":\"" + url + "\",\"redirect_uris\":[\"https://a.example/cb\"],"
                + "\"token_endpoint_auth_method\":\"client_secret_basic\"}";
        assertUnusable(documents(LOOPBACK, Clock.systemUTC()).resolve(url), "public clients");
        body = "not json";
        assertUnusable(documents(LOOPBACK, Clock.systemUTC()).resolve(url), "not JSON");
    }

    @Test
    void anInternalAddressIsRefusedUnlessTheOperatorAllowsItsNetwork() {
        String url = base.replace("http://", "https://") + "/client.json";
        body = document(url, "http://127.0.0.1:4711/callback");
        assertUnusable(documents(List.of(), Clock.systemUTC()).resolve(url), "lnp.oauth.client_metadata.allowed_networks");
        assertEquals(0, fetches.get(), "nothing was sent to the internal address");
        // http only for a network the operator allowed, and no URL without a path, with dot segments or a fragment.
        assertUnusable(documents(List.of(), Clock.systemUTC()).resolve(base + "/client.json"), "https");
        assertUnusable(documents(LOOPBACK, Clock.systemUTC()).resolve(base + "/"), "path");
        assertUnusable(documents(LOOPBACK, Clock.systemUTC()).resolve(base + "/a/../client.json"), "segments");
        assertUnusable(documents(LOOPBACK, Clock.systemUTC()).resolve(base + "/client.json#x"), "fragment");
    }

    @Test
    void aDocumentLargerThanTheLimitIsRefused() {
        String url = base + "/client.json";
        body = document(url, "http://127.0.0.1:4711/callback").replace("}", ",\"padding\":\""
                + "x".repeat(ClientMetadataDocuments.MAX_BYTES) + "\"}");
        assertUnusable(documents(LOOPBACK, Clock.systemUTC()).resolve(url), "larger than 5 KB");
    }

    @Test
    void aDocumentThatDoesNotArriveInTimeIsRefused() {
        String url = base + "/client.json";
        body = document(url, "http://127.0.0.1:4711/callback");
        delayMillis = 2_000;
        long started = System.nanoTime();
        assertUnusable(documents(LOOPBACK, Clock.systemUTC()).resolve(url), "did not arrive within 700 ms");
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toMillis() < 1_800, "gave up at the timeout");
    }

    @Test
    void aDocumentIsKeptAsLongAsHttpCachingAllowsAndNoLongerThanADay() {
        String url = base + "/client.json";
        body = document(url, "http://127.0.0.1:4711/callback");
        cacheControl = "public, max-age=60";
        var clock = new MutableClock();
        var documents = documents(LOOPBACK, clock);
        assertInstanceOf(ClientMetadataDocuments.Outcome.Found.class, documents.resolve(url));
        assertInstanceOf(ClientMetadataDocuments.Outcome.Found.class, documents.resolve(url));
        assertEquals(1, fetches.get(), "kept for its max-age");
        clock.now = clock.now.plusSeconds(61);
        documents.resolve(url);
        assertEquals(2, fetches.get(), "fetched again once stale");

        cacheControl = "no-store";
        clock.now = clock.now.plusSeconds(61);
        documents.resolve(url);
        documents.resolve(url);
        assertEquals(4, fetches.get(), "no-store keeps nothing");

        assertEquals(Duration.ofHours(24), ClientMetadataDocuments.cacheLifetime("max-age=31536000"));
        assertEquals(ClientMetadataDocuments.DEFAULT_CACHE, ClientMetadataDocuments.cacheLifetime(null));
        assertEquals(Duration.ZERO, ClientMetadataDocuments.cacheLifetime("no-cache"));
    }

    private static void assertUnusable(ClientMetadataDocuments.Outcome outcome, String expected) {
        var unusable = assertInstanceOf(ClientMetadataDocuments.Outcome.Unusable.class, outcome);
        assertTrue(unusable.reason().contains(expected), unusable.reason());
    }

    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-11-29T12:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
