package dev.lnp.plugins.chatbot.widget;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small fake of the chatbot wire contract (docs/chatbot.md) for the widget's own behaviour in the browser: the
 * states the real server cannot be made to produce on cue (a 429 with Retry-After, a dropped stream, an expired
 * token, the platform going away). It serves the real widget.js from the plugin's resources. The end-to-end test
 * against the real platform is {@code ChatbotWidgetBrowserTest}.
 */
final class FakeChatServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    record Request(String method, String path, Map<String, String> query, String origin, String cookie,
            String lastEventIdHeader, JsonNode body) {}

    private record Event(long id, String name, String data) {}

    private final HttpServer server;
    private final Set<String> allowedOrigins;
    private final byte[] script;
    final List<Request> requests = new CopyOnWriteArrayList<>();
    final AtomicInteger handshakes = new AtomicInteger();
    volatile boolean streaming = true;
    /** Answers the next chat messages with 429 and this Retry-After (seconds), while above zero. */
    volatile int rateLimitNext;
    volatile int retryAfterSeconds = 4;
    /** Answers chat messages with 503 while true (the platform is unreachable as far as the widget can tell). */
    volatile boolean down;
    /** When set, handshakes need this identity token (Known visitors): none is identity_required, another refused. */
    volatile String requiredIdentity;
    private final Map<String, List<Event>> events = new ConcurrentHashMap<>();
    private final Map<String, List<ObjectNode>> history = new ConcurrentHashMap<>();
    /** The sessions handed over to a person and their state (waiting, closed), as the platform keeps it. */
    private final Map<String, String> handoffs = new ConcurrentHashMap<>();
    private final Set<String> expiredTokens = ConcurrentHashMap.newKeySet();
    private final List<OutputStream> openStreams = new CopyOnWriteArrayList<>();
    private final AtomicInteger sequence = new AtomicInteger();

    FakeChatServer(Set<String> allowedOrigins) throws IOException {
        this.allowedOrigins = allowedOrigins;
        try (var in = FakeChatServer.class.getResourceAsStream("/widget/widget.js")) {
            this.script = in.readAllBytes();
        }
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Request> requests(String path) {
        return requests.stream().filter(r -> r.path().equals(path) && !r.method().equals("OPTIONS")).toList();
    }

    /** A person's reply on the hand-off ticket, as the platform would deliver it. */
    void humanReply(String session, String text) {
        ObjectNode message = message("human_agent", text, null);
        history.computeIfAbsent(session, s -> new CopyOnWriteArrayList<>()).add(message);
        emit(session, "human_agent.message", JSON.createObjectNode().set("message", message));
    }

    /** A member closes the conversation: the assistant answers again, the widget offers a person again. */
    void closeHandoff(String session) {
        handoffs.put(session, "closed");
        ObjectNode notice = message("system", "The team has closed this conversation.", null);
        history.get(session).add(notice);
        emit(session, "message.completed", JSON.createObjectNode().set("message", notice));
        emit(session, "handoff.closed", JSON.createObjectNode().put("state", "closed"));
    }

    /** Ends every open stream, as a dying node or a network drop would. */
    void dropStreams() {
        for (OutputStream out : openStreams) {
            try {
                out.close();
            } catch (IOException ignored) {
                // already gone
            }
        }
    }

    /** Sends {@code token.expired} on the session's stream and refuses its current tokens from then on. */
    void expireTokens(String session, Set<String> tokens) {
        expiredTokens.addAll(tokens);
        emit(session, "token.expired", "{}");
    }

    Set<String> sessions() {
        return history.keySet();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String origin = ex.getRequestHeaders().getFirst("Origin");
            String path = ex.getRequestURI().getPath();
            Map<String, String> query = query(ex.getRequestURI().getRawQuery());
            JsonNode body = null;
            byte[] raw = ex.getRequestBody().readAllBytes();
            if (raw.length > 0) {
                body = JSON.readTree(raw);
            }
            requests.add(new Request(ex.getRequestMethod(), path, query, origin,
                    ex.getRequestHeaders().getFirst("Cookie"), ex.getRequestHeaders().getFirst("Last-Event-ID"), body));
            if (path.equals("/api/cxo/widget.js")) {
                ex.getResponseHeaders().set("Content-Type", "text/javascript; charset=utf-8");
                ex.getResponseHeaders().set("Access-Control-Allow-Origin", "*");
                ex.sendResponseHeaders(200, script.length);
                ex.getResponseBody().write(script);
                return;
            }
            boolean allowed = origin != null && allowedOrigins.contains(origin);
            if (allowed) {
                ex.getResponseHeaders().set("Access-Control-Allow-Origin", origin);
                ex.getResponseHeaders().set("Access-Control-Expose-Headers", "Retry-After");
                ex.getResponseHeaders().set("Vary", "Origin");
            }
            if (ex.getRequestMethod().equals("OPTIONS")) {
                if (allowed) {
                    ex.getResponseHeaders().set("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
                    ex.getResponseHeaders().set("Access-Control-Allow-Headers", "Content-Type, Last-Event-ID");
                }
                ex.sendResponseHeaders(allowed ? 204 : 403, -1);
                return;
            }
            if (!allowed) {
                problem(ex, 403, "origin_not_allowed", "this origin is not allowed for the widget");
                return;
            }
            switch (path) {
                case "/api/cxo/config" -> config(ex, body, origin);
                case "/api/cxo/chatbot" -> chat(ex, body);
                case "/api/cxo/history" -> json(ex, 200, JSON.createObjectNode().put("session_id", query.get("session_id"))
                        .put("handoff_state", handoffs.get(query.get("session_id")))
                        .set("messages", JSON.valueToTree(history.getOrDefault(query.get("session_id"), List.of()))));
                case "/api/cxo/stream" -> stream(ex, query);
                default -> problem(ex, 404, "not_found", "no such route");
            }
        }
    }

    private void config(HttpExchange ex, JsonNode body, String origin) throws IOException {
        handshakes.incrementAndGet();
        if (!body.path("origin").asText().equals(origin)) {
            problem(ex, 403, "origin_not_allowed", "the body's origin is not the request's");
            return;
        }
        String identity = body.path("identity_token").asText("");
        if (requiredIdentity != null && identity.isEmpty()) {
            problem(ex, 401, "identity_required", "This chat is for signed-in visitors.");
            return;
        }
        if (requiredIdentity != null && !identity.equals(requiredIdentity)) {
            problem(ex, 401, "identity_token_invalid", "The identity token's signature does not match.");
            return;
        }
        String session = body.path("session_id").asText("");
        if (!history.containsKey(session)) {
            session = UUID.randomUUID().toString();
            history.put(session, new CopyOnWriteArrayList<>());
        }
        ObjectNode answer = JSON.createObjectNode();
        answer.put("session_id", session);
        answer.put("token", session + "." + UUID.randomUUID());
        answer.put("token_expires_at", Instant.now().plusSeconds(600).toString());
        answer.put("handoff_state", handoffs.get(session));
        ObjectNode widget = answer.putObject("widget");
        widget.put("id", UUID.randomUUID().toString());
        widget.put("name", "Help");
        widget.put("greeting", "Hi! How can we help?");
        widget.putObject("theme").put("accent_color", "#1f6feb").put("position", "right");
        widget.put("streaming", streaming);
        widget.put("human_handoff", true);
        json(ex, 200, answer);
    }

    private String session(String token) {
        return token == null || expiredTokens.contains(token) ? null : token.substring(0, token.indexOf('.'));
    }

    private void chat(HttpExchange ex, JsonNode body) throws IOException {
        String session = session(body.path("token").asText(null));
        if (session == null) {
            problem(ex, 401, "token_expired", "the token has expired");
            return;
        }
        if (down) {
            problem(ex, 503, "unavailable", "try again");
            return;
        }
        if (rateLimitNext > 0) {
            rateLimitNext--;
            ex.getResponseHeaders().set("Retry-After", String.valueOf(retryAfterSeconds));
            problem(ex, 429, "rate_limited", "too many messages");
            return;
        }
        String text = body.path("message").asText();
        String run = UUID.randomUUID().toString();
        ObjectNode visitor = message("visitor", text, run);
        history.get(session).add(visitor);
        boolean human = body.path("context").path("request_human").asBoolean(false);
        Thread.startVirtualThread(() -> answer(session, run, text, human));
        json(ex, 202, JSON.createObjectNode().put("run_id", run).put("status", "processing"));
    }

    private void answer(String session, String run, String question, boolean human) {
        try {
            Thread.sleep(300);
            if ("waiting".equals(handoffs.get(session))) {
                // A person has the conversation: the message is theirs, the assistant does not answer.
                emit(session, "run.completed", JSON.createObjectNode().put("run_id", run));
                return;
            }
            if (human) {
                handoffs.put(session, "waiting");
                emit(session, "handoff.opened", JSON.createObjectNode().put("ticket_id", UUID.randomUUID().toString()));
                ObjectNode notice = message("system", "I have asked a person to take over. Their reply will appear here.", run);
                history.get(session).add(notice);
                emit(session, "message.completed", JSON.createObjectNode().set("message", notice));
                emit(session, "run.completed", JSON.createObjectNode().put("run_id", run));
                return;
            }
            String id = UUID.randomUUID().toString();
            String answer = "You can return any item within 30 days of delivery (you asked: " + question + ").";
            for (String word : answer.split("(?<= )")) {
                emit(session, "message.delta", JSON.createObjectNode().put("run_id", run).put("message_id", id).put("delta", word));
                Thread.sleep(40);
            }
            ObjectNode message = message("assistant", answer, run);
            message.put("id", id);
            var citations = message.putArray("citations");
            citations.addObject().put("title", "Returns and refunds").put("url", "https://shop.example/help/returns");
            // Sources a widget must never turn into links.
            citations.addObject().put("title", "Script source").put("url", "javascript:alert(1)");
            citations.addObject().put("title", "Data source").put("url", "data:text/html,<script>alert(1)</script>");
            history.get(session).add(message);
            emit(session, "message.completed", JSON.createObjectNode().set("message", message));
            emit(session, "run.completed", JSON.createObjectNode().put("run_id", run));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ObjectNode message(String role, String text, String run) {
        ObjectNode m = JSON.createObjectNode();
        m.put("id", UUID.randomUUID().toString());
        m.put("role", role);
        m.put("text", text);
        m.put("created_at", Instant.now().toString());
        m.put("run_id", run);
        m.putArray("citations");
        return m;
    }

    private void emit(String session, String name, Object data) {
        List<Event> list = events.computeIfAbsent(session, s -> new ArrayList<>());
        synchronized (list) {
            list.add(new Event(sequence.incrementAndGet(), name, data.toString()));
            list.notifyAll();
        }
    }

    private void stream(HttpExchange ex, Map<String, String> query) throws IOException {
        if (!streaming) {
            problem(ex, 404, "streaming_disabled", "streaming is off for this widget");
            return;
        }
        String session = session(query.get("token"));
        if (session == null || !session.equals(query.get("session_id"))) {
            problem(ex, 401, "token_expired", "the token has expired");
            return;
        }
        String header = ex.getRequestHeaders().getFirst("Last-Event-ID");
        long after = Long.parseLong(header != null ? header : query.getOrDefault("last_event_id", "0"));
        ex.getResponseHeaders().set("Content-Type", "text/event-stream");
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        openStreams.add(out);
        try {
            out.write("retry: 3000\n\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            List<Event> list = events.computeIfAbsent(session, s -> new ArrayList<>());
            while (true) {
                List<Event> next;
                synchronized (list) {
                    final long from = after;
                    next = list.stream().filter(e -> e.id() > from).toList();
                    if (next.isEmpty()) {
                        list.wait(15_000);
                        final long again = after;
                        next = list.stream().filter(e -> e.id() > again).toList();
                    }
                }
                if (next.isEmpty()) {
                    out.write(": ping\n\n".getBytes(StandardCharsets.UTF_8));
                }
                for (Event e : next) {
                    out.write(("id: " + e.id() + "\nevent: " + e.name() + "\ndata: " + e.data() + "\n\n").getBytes(StandardCharsets.UTF_8));
                    after = e.id();
                    if (e.name().equals("token.expired")) {
                        out.flush();
                        return;
                    }
                }
                out.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException closed) {
            // the browser went away, or dropStreams()
        } finally {
            openStreams.remove(out);
        }
    }

    private static void problem(HttpExchange ex, int status, String code, String detail) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "application/problem+json");
        byte[] body = JSON.createObjectNode().put("status", status).put("title", code).put("detail", detail)
                .put("code", code).toString().getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, body.length);
        ex.getResponseBody().write(body);
    }

    private static void json(HttpExchange ex, int status, JsonNode node) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "application/json");
        byte[] body = node.toString().getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, body.length);
        ex.getResponseBody().write(body);
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> map = new HashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    map.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return map;
    }

    @Override
    public void close() {
        dropStreams();
        server.stop(0);
    }
}
