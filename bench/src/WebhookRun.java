import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The webhook scenario: a receiver in this process (a JDK {@link HttpServer} on loopback, answering 204 at
 * once), a subscription to {@code crm.contact.created} made through the public API, then a burst of
 * {@code events} contacts POSTed at {@code connections} concurrent workers, and what the receiver saw:
 * deliveries per second from the first receipt to the last, lag from the event's {@code occurred_at} to its
 * receipt (both this machine's clock), duplicates, signatures that did not verify, and deliveries still
 * missing after a bounded wait. The subscription is deleted afterwards, so a kept database is not left
 * delivering to a closed port.
 */
final class WebhookRun {

    static final String EVENT = "crm.contact.created";
    private static final Pattern STRING_FIELD = Pattern.compile("\"(id|secret|occurred_at|delivery_id)\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([0-9a-f-]{36})\"");

    /** One request the receiver got; {@code contact} is the created contact's id from {@code data}. */
    record Receipt(String deliveryId, String event, Instant receivedAt, Instant occurredAt, UUID contact) {
    }

    /** What the row shows, beyond the {@link Bench.Result}. */
    record Outcome(Bench.Result result, String note, double postRate) {
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final String key;
    private final Server server;
    private final int events;
    private final int connections;
    private final int waitSeconds;

    private final ConcurrentLinkedQueue<Receipt> receipts = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
    private final AtomicInteger badSignatures = new AtomicInteger();
    private final AtomicInteger verified = new AtomicInteger();
    private volatile String secret;

    WebhookRun(String base, String key, Server server, int events, int connections, int waitSeconds) {
        this.base = base;
        this.key = key;
        this.server = server;
        this.events = events;
        this.connections = connections;
        this.waitSeconds = waitSeconds;
    }

    Outcome run() throws Exception {
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 128);
        receiver.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        receiver.createContext("/hooks", this::receive);
        receiver.start();
        String subscription = null;
        try {
            String url = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks";
            String created = send("POST", "/api/v1/webhooks/subscriptions", "{\"url\":\"" + url
                    + "\",\"events\":[\"" + EVENT + "\"],\"description\":\"bench receiver\"}", 201);
            subscription = field(created, "id");
            secret = field(created, "secret");
            checkWiring(subscription);
            return burst();
        } finally {
            if (subscription != null) {
                try {
                    send("DELETE", "/api/v1/webhooks/subscriptions/" + subscription, null, 204);
                } catch (Exception e) {
                    // Reported, but never in place of the error that ended the run (a dead server fails both).
                    System.err.println("could not delete the bench subscription " + subscription + ": " + e);
                }
            }
            receiver.stop(0);
        }
    }

    /** A test delivery first: it proves the receiver is reachable and signed for before the clock starts. */
    private void checkWiring(String subscription) throws Exception {
        send("POST", "/api/v1/webhooks/subscriptions/" + subscription + "/test", "{}", 202);
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (receipts.stream().noneMatch(r -> r.event().equals("webhooks.test"))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the test delivery did not reach the bench receiver within 15 s"
                        + " (is 127.0.0.1 in LNP_WEBHOOKS_ALLOWED__NETWORKS?)");
            }
            Thread.sleep(20);
        }
        if (badSignatures.get() > 0) {
            throw new IllegalStateException("the test delivery's signature did not verify");
        }
        receipts.clear();
        seen.clear();
        verified.set(0);
    }

    private Outcome burst() throws Exception {
        long epoch = Instant.now().getEpochSecond();
        // Record i is always the same body; an offset per run keeps the emails unique on a kept database.
        int offset = 1_000_000_000 + (int) (epoch % (1_000_000_000L / events)) * events;
        double cpuBefore = server.cpuSeconds();
        long started = System.nanoTime();
        AtomicBoolean sampling = new AtomicBoolean(true);
        double[] peakRss = {server.rssMb()};
        Thread sampler = Thread.ofVirtual().start(() -> {
            while (sampling.get()) {
                peakRss[0] = Math.max(peakRss[0], server.rssMb());
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        List<UUID> contacts = new Seeder(base, connections).post(key, "/api/v1/crm/contacts", events,
                i -> Data.contact(offset + i), "contacts (webhook events)");
        double postSeconds = (System.nanoTime() - started) / 1e9;
        Instant postsEnded = Instant.now();
        Set<UUID> expected = new HashSet<>(contacts);
        long deadline = System.nanoTime() + Duration.ofSeconds(waitSeconds).toNanos();
        while (received(expected) < expected.size() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        double cpuSeconds = server.cpuSeconds() - cpuBefore;
        double cpu = cpuSeconds / elapsed * 100;
        sampling.set(false);
        sampler.join();

        // Only the burst's own events are measured: a subscription made while older outbox rows still wait for
        // fan-out also receives those (see bench/README.md); they are counted apart.
        List<Receipt> firsts = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        int older = 0;
        for (Receipt r : receipts) {
            if (!ids.add(r.deliveryId())) {
                continue;
            }
            if (r.contact() != null && expected.contains(r.contact())) {
                firsts.add(r);
            } else {
                older++;
            }
        }
        int missing = expected.size() - received(expected);
        long duplicates = seen.values().stream().mapToInt(AtomicInteger::get).filter(n -> n > 1)
                .mapToLong(n -> n - 1).sum();
        Instant first = firsts.stream().map(Receipt::receivedAt).min(Instant::compareTo).orElse(Instant.EPOCH);
        Instant last = firsts.stream().map(Receipt::receivedAt).max(Instant::compareTo).orElse(Instant.EPOCH);
        double span = Duration.between(first, last).toNanos() / 1e9;
        // Deliveries compete with the burst's own requests for the two cores; the rate once the burst is over shows
        // what the dispatcher does on its own.
        long duringBurst = firsts.stream().filter(r -> r.receivedAt().isBefore(postsEnded)).count();
        double drainSeconds = Duration.between(postsEnded, last).toNanos() / 1e9;
        double drainRate = drainSeconds > 0 ? (firsts.size() - duringBurst) / drainSeconds : 0;
        double[] lags = firsts.stream()
                .mapToDouble(r -> Duration.between(r.occurredAt(), r.receivedAt()).toNanos() / 1e6).sorted().toArray();
        Bench.Result result = new Bench.Result(span > 0 ? (firsts.size() - 1) / span : 0, percentile(lags, 50),
                percentile(lags, 99), missing + badSignatures.get(), firsts.size(), cpu, peakRss[0]);
        String note = String.format(Locale.ROOT, "%,d events posted in %.1f s (%,.0f/s); %,d delivered during the"
                + " burst (%,.0f/s), the rest at %,.0f/s after it; %,d received, %d duplicates,"
                + " %d missing after %d s; lag max %.0f ms; signatures verified %,d, bad %d; server CPU %.2f ms per"
                + " event (its POST and its delivery)%s", events, postSeconds,
                events / postSeconds, duringBurst, duringBurst / postSeconds, drainRate, firsts.size(), duplicates,
                missing, waitSeconds,
                lags.length == 0 ? 0 : lags[lags.length - 1], verified.get(), badSignatures.get(),
                cpuSeconds * 1000 / events, older == 0 ? "" : String.format(Locale.ROOT, "; %,d deliveries of events older than the"
                        + " subscription (not measured)", older));
        return new Outcome(result, note, events / postSeconds);
    }

    private int received(Set<UUID> expected) {
        Set<UUID> got = new HashSet<>();
        for (Receipt r : receipts) {
            if (r.contact() != null && expected.contains(r.contact())) {
                got.add(r.contact());
            }
        }
        return got.size();
    }

    private void receive(HttpExchange exchange) {
        Instant at = Instant.now();
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String deliveryId = exchange.getRequestHeaders().getFirst("X-Service-Delivery-Id");
            String event = exchange.getRequestHeaders().getFirst("X-Service-Event");
            exchange.sendResponseHeaders(204, -1);
            // Every delivery is checked: an HMAC of a 1 KB body costs microseconds against the platform's work.
            if (verify(exchange.getRequestHeaders().getFirst("X-Service-Timestamp"),
                    exchange.getRequestHeaders().getFirst("X-Service-Signature"), body)) {
                verified.incrementAndGet();
            } else {
                badSignatures.incrementAndGet();
            }
            String text = new String(body, StandardCharsets.UTF_8);
            String occurred = null;
            Matcher m = STRING_FIELD.matcher(text);
            while (m.find()) {
                if (m.group(1).equals("occurred_at")) {
                    occurred = m.group(2);
                    break;
                }
            }
            int data = text.indexOf("\"data\"");
            Matcher id = ID.matcher(text);
            UUID contact = data >= 0 && id.find(data) ? UUID.fromString(id.group(1)) : null;
            seen.computeIfAbsent(deliveryId, d -> new AtomicInteger()).incrementAndGet();
            receipts.add(new Receipt(deliveryId, event, at, occurred == null ? at : Instant.parse(occurred), contact));
        } catch (Exception e) {
            Bench.log("bench receiver: " + e);
        }
    }

    /** {@code sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">}, any of the comma-separated values. */
    private boolean verify(String timestamp, String header, byte[] body) throws Exception {
        if (timestamp == null || header == null || secret == null) {
            return false;
        }
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((timestamp + ".").getBytes(StandardCharsets.US_ASCII));
        byte[] expected = ("sha256=" + HexFormat.of().formatHex(mac.doFinal(body))).getBytes(StandardCharsets.US_ASCII);
        for (String candidate : header.split("[,\\s]+")) {
            if (MessageDigest.isEqual(expected, candidate.getBytes(StandardCharsets.US_ASCII))) {
                return Math.abs(Instant.now().getEpochSecond() - Long.parseLong(timestamp)) <= 300;
            }
        }
        return false;
    }

    private static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private String send(String method, String path, String body, int expectedStatus) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expectedStatus) {
            throw new IllegalStateException(method + " " + path + " answered " + response.statusCode() + ": "
                    + response.body());
        }
        return response.body();
    }

    private static String field(String json, String name) {
        Matcher m = STRING_FIELD.matcher(json);
        while (m.find()) {
            if (m.group(1).equals(name)) {
                return m.group(2);
            }
        }
        throw new IllegalStateException("no " + name + " in " + json);
    }
}
