package dev.lnp.testkit.webhooks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Concurrent writers for the fault tests: each request publishes one probe event whose {@code pad} length is the
 * request's own number, so a stored event names the write that caused it. Keeps the books: which numbers were
 * sent, which were acknowledged (2xx), every other status, and how long refusals took.
 */
final class WriteBurst implements AutoCloseable {

    private final String base;
    private final String key;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger next = new AtomicInteger(1);
    private final List<Thread> threads = new ArrayList<>();

    final Set<Integer> attempted = ConcurrentHashMap.newKeySet();
    final Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
    final Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
    final List<Long> refusalMillis = java.util.Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger refusalsNotProblemJson = new AtomicInteger();
    final AtomicLong lastAcknowledgedNanos = new AtomicLong();

    WriteBurst(int port, String key, int writers) {
        this.base = "http://127.0.0.1:" + port;
        this.key = key;
        for (int i = 0; i < writers; i++) {
            Thread t = Thread.ofPlatform().daemon().name("writer-" + i).start(this::write);
            threads.add(t);
        }
    }

    private void write() {
        while (running.get() && !Thread.currentThread().isInterrupted()) {
            int n = next.getAndIncrement();
            attempted.add(n);
            long started = System.nanoTime();
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/probe/events"))
                        .timeout(Duration.ofSeconds(20))
                        .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"count\": 1, \"pad\": " + n + "}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                int status = response.statusCode();
                outcomes.computeIfAbsent(String.valueOf(status), s -> new AtomicInteger()).incrementAndGet();
                if (status / 100 == 2) {
                    acknowledged.add(n);
                    lastAcknowledgedNanos.set(System.nanoTime());
                } else {
                    refusalMillis.add((System.nanoTime() - started) / 1_000_000);
                    if (!response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json")) {
                        refusalsNotProblemJson.incrementAndGet();
                    }
                    pause(); // a refused client backs off a little instead of spinning on two shared cores
                }
            } catch (Exception noAnswer) {
                // The process died under the request (or the request timed out): its fate is unknown, which is
                // exactly what a client sees; such a write may or may not be stored.
                outcomes.computeIfAbsent("no answer", s -> new AtomicInteger()).incrementAndGet();
                pause();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    long slowestRefusalMillis() {
        synchronized (refusalMillis) {
            return refusalMillis.stream().mapToLong(Long::longValue).max().orElse(0);
        }
    }

    long refusalsSlowerThan(long millis) {
        synchronized (refusalMillis) {
            return refusalMillis.stream().filter(m -> m > millis).count();
        }
    }

    long medianRefusalMillis() {
        synchronized (refusalMillis) {
            return refusalMillis.isEmpty() ? 0 : refusalMillis.stream().sorted().toList().get(refusalMillis.size() / 2);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread t : threads) {
            t.join(30_000);
        }
    }
}
