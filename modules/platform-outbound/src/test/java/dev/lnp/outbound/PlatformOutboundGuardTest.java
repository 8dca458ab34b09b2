package dev.lnp.outbound;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.lnp.api.outbound.OutboundRefusal;
import dev.lnp.api.outbound.OutboundRequest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The guard as plugins get it: what it refuses, and what it sends where the operator allows the network. */
class PlatformOutboundGuardTest {

    private HttpServer server;
    private final AtomicInteger requests = new AtomicInteger();
    private final CountDownLatch secondEvent = new CountDownLatch(1);

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/echo", exchange -> {
            requests.incrementAndGet();
            byte[] body = exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("X-Method", exchange.getRequestMethod());
            exchange.sendResponseHeaders(201, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/big", exchange -> {
            byte[] body = "x".repeat(5000).getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/events", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            out.write("data: one\n\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            try {
                // The second event waits for the client to have read the first: the body is streamed.
                secondEvent.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            out.write("data: two\n\n".getBytes(StandardCharsets.UTF_8));
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private URI url(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1/", "http://10.1.2.3/v1", "http://169.254.169.254/latest/meta-data/",
            "http://[::1]:8080/", "http://localhost/"})
    void innerAddressesAreRefusedWithAStableRuleAndAReadableMessage(String url) {
        var guard = PlatformOutboundGuard.allowing(List.of());
        OutboundRefusal refused = assertThrows(OutboundRefusal.class, () -> guard.check(url));
        assertEquals("blocked_address", refused.rule());
        assertTrue(refused.getMessage().contains("lnp.outbound.allowed_networks"), refused.getMessage());
    }

    @Test
    void nothingIsSentToARefusedAddress() {
        var guard = PlatformOutboundGuard.allowing(List.of());
        OutboundRefusal refused = assertThrows(OutboundRefusal.class, () -> guard.send(
                OutboundRequest.post(url("/echo"), Map.of(), new byte[] {1}, Duration.ofSeconds(5), 100)));
        assertEquals("blocked_address", refused.rule());
        assertEquals(0, requests.get());
    }

    @Test
    void aUrlThatIsNotHttpIsRefusedBeforeAnyLookup() {
        var guard = PlatformOutboundGuard.allowing(List.of());
        assertEquals("scheme", assertThrows(OutboundRefusal.class, () -> guard.check("file:///etc/passwd")).rule());
        assertEquals("credentials", assertThrows(OutboundRefusal.class,
                () -> guard.check("https://u:p@api.example.com/")).rule());
    }

    @Test
    void theOperatorsNetworkIsReachable() throws Exception {
        var guard = PlatformOutboundGuard.allowing(List.of("127.0.0.0/8"));
        assertEquals(url("/echo"), guard.check(url("/echo").toString()));
        byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
        try (var response = guard.send(OutboundRequest.post(url("/echo"), Map.of("Content-Type", "text/plain"), body,
                Duration.ofSeconds(5), 100))) {
            assertEquals(201, response.status());
            assertEquals("POST", response.header("x-method").orElseThrow());
            assertArrayEquals(body, response.body().readAllBytes());
            assertFalse(response.truncated());
        }
    }

    @Test
    void aFeaturesOwnNetworksAddToTheOperatorsAndItsRefusalsNameItsSetting() throws Exception {
        var guard = PlatformOutboundGuard.allowing(List.of()).allowing("lnp.webhooks.allowed_networks",
                List.of("127.0.0.1"));
        try (var response = guard.send(OutboundRequest.get(url("/big"), Map.of(), Duration.ofSeconds(5), 10))) {
            assertEquals(200, response.status());
        }
        var refused = assertThrows(OutboundRefusal.class, () -> guard.check("http://10.0.0.1/"));
        assertTrue(refused.getMessage().contains("lnp.webhooks.allowed_networks"), refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> guard.allowing("x", List.of("not-a-network")));
    }

    @Test
    void theBodyEndsAtTheCap() throws Exception {
        var guard = PlatformOutboundGuard.allowing(List.of("127.0.0.0/8"));
        try (var response = guard.send(OutboundRequest.get(url("/big"), Map.of(), Duration.ofSeconds(5), 1000))) {
            assertEquals(1000, response.body().readAllBytes().length);
            assertTrue(response.truncated());
        }
    }

    @Test
    void serverSentEventsArriveAsTheyAreSent() throws Exception {
        var guard = PlatformOutboundGuard.allowing(List.of("127.0.0.0/8"));
        try (var response = guard.send(OutboundRequest.get(url("/events"), Map.of("Accept", "text/event-stream"),
                Duration.ofSeconds(5), 10_000));
                var lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            assertEquals("data: one", lines.readLine());
            secondEvent.countDown();
            assertEquals("", lines.readLine());
            assertEquals("data: two", lines.readLine());
        }
    }

    /** A streaming server may end its body by closing the connection, without a length or chunks. */
    @Test
    void aBodyEndedByClosingTheConnectionIsReadToItsEnd() throws Exception {
        try (var closing = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                try (var socket = closing.accept()) {
                    var in = socket.getInputStream();
                    byte[] buffer = new byte[4096];
                    int read;
                    String head = "";
                    while (!head.contains("\r\n\r\n") && (read = in.read(buffer)) > 0) {
                        head += new String(buffer, 0, read, StandardCharsets.ISO_8859_1);
                    }
                    socket.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                            + "Connection: close\r\n\r\ndata: one\n\ndata: [DONE]\n\n").getBytes(StandardCharsets.UTF_8));
                } catch (IOException e) {
                    // the test reports what arrived
                }
            });
            var guard = PlatformOutboundGuard.allowing(List.of("127.0.0.0/8"));
            try (var response = guard.send(OutboundRequest.get(
                    URI.create("http://127.0.0.1:" + closing.getLocalPort() + "/"), Map.of(), Duration.ofSeconds(10),
                    10_000))) {
                assertEquals("data: one\n\ndata: [DONE]\n\n",
                        new String(response.body().readAllBytes(), StandardCharsets.UTF_8));
                assertFalse(response.truncated());
            }
        }
    }

    @Test
    void aServerThatDoesNotAnswerInTimeIsAnIoFailure() throws Exception {
        try (var silent = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                try (var held = silent.accept()) {
                    Thread.sleep(10_000);
                } catch (IOException | InterruptedException e) {
                    // the test is over
                }
            });
            var guard = PlatformOutboundGuard.allowing(List.of("127.0.0.0/8"));
            // A first request builds the client (its TLS context can take seconds on a loaded machine).
            guard.send(OutboundRequest.get(url("/big"), Map.of(), Duration.ofSeconds(30), 10)).close();
            long started = System.nanoTime();
            assertThrows(IOException.class, () -> guard.send(OutboundRequest.get(
                    URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/"), Map.of(), Duration.ofMillis(500),
                    100)).close());
            long took = (System.nanoTime() - started) / 1_000_000;
            assertTrue(took < 4000, "the timeout cut the wait short: " + took + " ms");
        }
    }
}
