package dev.lnp.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.lnp.api.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * A real webhook receiver on a loopback port (the JDK's HTTP server) for tests: records every request with its
 * headers and raw body, answers as the test scripts, and counts a delivery id arriving while the same id is
 * still being answered. A request is in flight from its arrival until its answer is sent (not until the exchange
 * is closed: the platform may send the next request as soon as it has the answer, before this side has closed).
 * The platform under test must allow the loopback network
 * ({@code lnp.webhooks.allowed_networks=127.0.0.0/8}).
 */
public final class WebhookReceiver implements AutoCloseable {

    /** One request as it arrived. */
    public record Received(String deliveryId, String event, String timestamp, String signature, String attempt,
            byte[] body, Instant at, long nanos, Map<String, List<String>> headers) {

        public JsonNode json() {
            return Json.parse(new String(body, StandardCharsets.UTF_8));
        }

        /** Every value of a request header (names are case-insensitive); empty when it was not sent. */
        public List<String> header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .flatMap(e -> e.getValue().stream()).toList();
        }
    }

    /** How to answer: status, headers, body, and how long to wait first. */
    public record Reply(int status, Map<String, String> headers, String body, Duration delay) {
        public static Reply status(int status) {
            return new Reply(status, Map.of(), "", Duration.ZERO);
        }

        public Reply withHeader(String name, String value) {
            var all = new java.util.HashMap<>(headers);
            all.put(name, value);
            return new Reply(status, all, body, delay);
        }

        public Reply withBody(String body) {
            return new Reply(status, headers, body, delay);
        }

        public Reply after(Duration delay) {
            return new Reply(status, headers, body, delay);
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> inFlightByDelivery = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicInteger overlaps = new AtomicInteger();
    private volatile Function<Received, Reply> responder = r -> Reply.status(200);

    public WebhookReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    public WebhookReceiver respond(Function<Received, Reply> responder) {
        this.responder = responder;
        return this;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    public List<Received> receivedFor(String deliveryId) {
        return received.stream().filter(r -> deliveryId.equals(r.deliveryId())).toList();
    }

    /** Times a delivery id was in flight at this receiver while already in flight (must stay 0). */
    public int overlaps() {
        return overlaps.get();
    }

    public int maxInFlight() {
        return maxInFlight.get();
    }

    public void clear() {
        received.clear();
        maxInFlight.set(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        var headers = exchange.getRequestHeaders();
        var request = new Received(headers.getFirst("X-Service-Delivery-Id"), headers.getFirst("X-Service-Event"),
                headers.getFirst("X-Service-Timestamp"), headers.getFirst("X-Service-Signature"),
                headers.getFirst("X-Service-Attempt"), body, Instant.now(), System.nanoTime(), Map.copyOf(headers));
        String id = request.deliveryId() == null ? "?" : request.deliveryId();
        AtomicInteger mine = inFlightByDelivery.computeIfAbsent(id, k -> new AtomicInteger());
        if (mine.incrementAndGet() > 1) {
            overlaps.incrementAndGet();
        }
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        received.add(request);
        var answered = new AtomicBoolean();
        Runnable answering = () -> {
            if (answered.compareAndSet(false, true)) {
                inFlight.decrementAndGet();
                mine.decrementAndGet();
            }
        };
        try {
            Reply reply = responder.apply(request);
            if (!reply.delay().isZero()) {
                Thread.sleep(reply.delay().toMillis());
            }
            byte[] out = reply.body().getBytes(StandardCharsets.UTF_8);
            reply.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            // Out of flight before the platform can see the answer, so its next request is never counted with this one.
            answering.run();
            exchange.sendResponseHeaders(reply.status(), out.length == 0 ? -1 : out.length);
            if (out.length > 0) {
                try (OutputStream os = exchange.getResponseBody()) {
                    os.write(out);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            // the platform gave up (timeout) or the test's responder threw: nothing more to say
        } finally {
            answering.run();
            exchange.close();
        }
    }

    /** Waits until {@code condition} holds, failing after {@code timeout}. */
    public static void await(Duration timeout, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
