package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** What a browser page does against the public chat endpoints, over real HTTP. */
final class ChatClient {

    static final String ORIGIN = "https://shop.example";

    private final TestPlatform platform;

    ChatClient(TestPlatform platform) {
        this.platform = platform;
    }

    /** Creates a widget (knowledge responder unless {@code extra} says otherwise); returns the create answer's data. */
    JsonNode createWidget(UUID ws, String extraFields) {
        String key = platform.fullAccessKey(ws);
        TestResponse r = platform.post("/api/v1/chatbot/widgets", key, "{\"name\":\"Help\",\"greeting\":\"Hi!\","
                + "\"allowed_origins\":[\"" + ORIGIN + "\",\"http://127.0.0.1:9\"]" + extraFields + "}");
        if (r.status() != 201) {
            throw new AssertionError(r.toString());
        }
        return r.data();
    }

    /** Waits until the workspace's knowledge is indexed: articles are answerable once the indexer has run. */
    void awaitKnowledge(UUID ws) throws InterruptedException {
        String key = platform.fullAccessKey(ws);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            JsonNode p = platform.get("/api/v1/chatbot/knowledge", key).data();
            if (p != null && p.path("pending").asInt(1) == 0) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the knowledge was never indexed");
    }

    TestResponse handshake(String apiKey, String bodyOrigin, String headerOrigin, String extra) {
        return platform.send("POST", "/api/cxo/config", null, "{\"api_key\":\"" + apiKey + "\",\"origin\":\""
                        + bodyOrigin + "\",\"url\":\"" + bodyOrigin + "/page\"" + extra + "}",
                headerOrigin == null ? Map.of() : Map.of("Origin", headerOrigin));
    }

    /** A successful handshake from {@link #ORIGIN}. */
    JsonNode session(String apiKey) {
        TestResponse r = handshake(apiKey, ORIGIN, ORIGIN, "");
        if (r.status() != 200) {
            throw new AssertionError(r.toString());
        }
        return r.json();
    }

    TestResponse message(JsonNode session, String text, String context) {
        return platform.send("POST", "/api/cxo/chatbot", null, "{\"token\":\"" + session.get("token").asText()
                + "\",\"session_id\":\"" + session.get("session_id").asText() + "\",\"message\":" + Json.mapper()
                .valueToTree(text) + (context == null ? "" : ",\"context\":" + context) + "}", Map.of("Origin", ORIGIN));
    }

    TestResponse history(String apiKey, String sessionId) {
        return platform.send("GET", "/api/cxo/history?session_id=" + sessionId + "&api_key=" + apiKey, null, null,
                Map.of("Origin", ORIGIN));
    }

    /** The session's messages once {@code done} holds for them (runs answer asynchronously). */
    JsonNode awaitHistory(String apiKey, String sessionId, Predicate<JsonNode> done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        JsonNode messages = null;
        while (System.nanoTime() < deadline) {
            TestResponse r = history(apiKey, sessionId);
            if (r.status() != 200) {
                throw new AssertionError(r.toString());
            }
            messages = r.json().get("messages");
            if (done.test(messages)) {
                return messages;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("history never got there: " + messages);
    }

    /** One Server-Sent Event as read off the wire. */
    record Event(String id, String name, String data, List<String> rawLines) {
        JsonNode json() {
            return Json.parse(data);
        }
    }

    /** An open stream read line by line on a thread of its own. */
    static final class Stream implements AutoCloseable {
        final int status;
        final HttpResponse<InputStream> response;
        final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        final List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
        private final Thread reader;
        volatile boolean ended;

        Stream(HttpResponse<InputStream> response) {
            this.status = response.statusCode();
            this.response = response;
            this.reader = Thread.ofVirtual().start(this::read);
        }

        private void read() {
            try (var in = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                String line;
                String id = null;
                String name = null;
                StringBuilder data = null;
                List<String> raw = new ArrayList<>();
                while ((line = in.readLine()) != null) {
                    lines.add(line);
                    if (line.isEmpty()) {
                        if (name != null) {
                            events.add(new Event(id, name, data == null ? null : data.toString(), List.copyOf(raw)));
                        }
                        id = null;
                        name = null;
                        data = null;
                        raw.clear();
                        continue;
                    }
                    raw.add(line);
                    if (line.startsWith("id: ")) {
                        id = line.substring(4);
                    } else if (line.startsWith("event: ")) {
                        name = line.substring(7);
                    } else if (line.startsWith("data: ")) {
                        data = data == null ? new StringBuilder(line.substring(6)) : data.append('\n').append(line.substring(6));
                    }
                }
            } catch (java.io.IOException e) {
                // closed by the test
            } finally {
                ended = true;
            }
        }

        /** The next event named {@code name}, skipping others; fails after 20 s. */
        Event next(String name) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < deadline) {
                Event e = events.poll(100, TimeUnit.MILLISECONDS);
                if (e != null && e.name().equals(name)) {
                    return e;
                }
            }
            throw new AssertionError("no " + name + " event; lines so far: " + lines);
        }

        @Override
        public void close() throws Exception {
            response.body().close();
            reader.interrupt();
        }
    }

    Stream stream(String token, String sessionId, String lastEventId) throws Exception {
        var request = HttpRequest.newBuilder(platform.uri("/api/cxo/stream?session_id=" + sessionId + "&token="
                        + URLEncoder.encode(token, StandardCharsets.UTF_8)))
                .header("Origin", ORIGIN).header("Accept", "text/event-stream").GET();
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        var response = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()
                .send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        return new Stream(response);
    }
}
