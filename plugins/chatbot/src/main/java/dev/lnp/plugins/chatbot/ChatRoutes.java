package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.PluginContext;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.RawRequest;
import dev.lnp.api.http.RawResponse;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.http.RequestJson;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The public chat endpoints under {@code /api/cxo} (raw routes: no key in the pipeline, CORS answered here with the
 * exact allowed origin, never {@code *}, except for the script itself), and the widget loader.
 */
final class ChatRoutes {

    private static final String CXO = "/api/cxo";
    private static final List<String> CHAT_PATHS = List.of(CXO + "/config", CXO + "/chatbot", CXO + "/history",
            CXO + "/stream", CXO + "/contact", CXO + "/rating", CXO + "/csat");

    private final Supplier<ChatService> chatService;
    private final Supplier<PluginContext> context;
    private final WidgetRepository widgets;
    private final Supplier<ChatSettings> chatSettings;
    private final Supplier<WidgetScript> script;
    private final Supplier<Boolean> stopping;
    private final Supplier<StreamSignals> signals;

    /** Services are suppliers: routes are registered before the plugin starts and creates them. */
    ChatRoutes(Supplier<ChatService> chat, Supplier<PluginContext> context, WidgetRepository widgets,
            Supplier<ChatSettings> settings, Supplier<WidgetScript> script, Supplier<Boolean> stopping,
            Supplier<StreamSignals> signals) {
        this.signals = signals;
        this.chatService = chat;
        this.context = context;
        this.widgets = widgets;
        this.chatSettings = settings;
        this.script = script;
        this.stopping = stopping;
    }

    List<RouteSpec> routes() {
        List<RouteSpec> routes = new java.util.ArrayList<>();
        routes.add(RouteSpec.get(CXO + "/widget.js").publicRoute().summary("The chat widget loader").raw(this::script));
        routes.add(RouteSpec.options(CXO + "/widget.js").publicRoute().raw(r -> preflightScript()));
        routes.add(RouteSpec.post(CXO + "/config").publicRoute().summary("Chat handshake: widget key and origin in, "
                + "session and token out").raw(r -> json(r, cors -> chat().handshake(r, body(r), cors), 200)));
        routes.add(RouteSpec.post(CXO + "/chatbot").publicRoute().summary("A visitor's message; answered by a run")
                .raw(r -> json(r, cors -> chat().message(r, body(r), cors), 202)));
        routes.add(RouteSpec.post(CXO + "/contact").publicRoute().summary("A visitor's e-mail address for the "
                + "team, left outside office hours").raw(r -> json(r, cors -> chat().contact(r, body(r), cors), 200)));
        routes.add(RouteSpec.post(CXO + "/rating").publicRoute().summary("A visitor's thumbs up or down on one "
                + "answer").raw(r -> json(r, cors -> chat().rate(r, body(r), cors), 200)));
        routes.add(RouteSpec.post(CXO + "/csat").publicRoute().summary("A visitor's satisfaction with the "
                + "conversation, 1 to 5, with an optional comment").raw(r -> json(r, cors -> chat().csat(r, body(r), cors), 200)));
        routes.add(RouteSpec.get(CXO + "/history").publicRoute().summary("A conversation's messages, oldest first")
                .raw(r -> json(r, cors -> chat().history(r, cors), 200)));
        routes.add(RouteSpec.get(CXO + "/stream").publicRoute().summary("Server-Sent Events of a conversation")
                .raw(this::stream));
        for (String path : CHAT_PATHS) {
            routes.add(RouteSpec.options(path).publicRoute().raw(this::preflight));
        }
        return routes;
    }

    private ChatService chat() {
        return chatService.get();
    }

    @FunctionalInterface
    private interface Flow {
        Object run(ChatService.Cors cors) throws Exception;
    }

    private ChatService.Cors cors(RawRequest r) {
        String origin = r.header("Origin").orElse(null);
        return new ChatService.Cors(origin, () -> {
            String normalized = Origins.normalize(origin);
            return normalized != null && context.get().acrossWorkspaces(h -> widgets.anyWidgetAllows(h, normalized));
        });
    }

    /** Runs a flow and answers JSON; a problem it throws carries the CORS headers too, so the page can read it. */
    private RawResponse json(RawRequest r, Flow flow, int status) throws Exception {
        ChatService.Cors cors = cors(r);
        try {
            Object result = flow.run(cors);
            return new RawResponse(status, withNoStore(cors.headers()), "application/json",
                    Json.mapper().writeValueAsBytes(result));
        } catch (ApiProblem p) {
            throw withHeaders(p, cors.headers());
        }
    }

    private static Map<String, String> withNoStore(Map<String, String> headers) {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put("Cache-Control", "no-store");
        return h;
    }

    private static ApiProblem withHeaders(ApiProblem p, Map<String, String> headers) {
        Map<String, String> h = new LinkedHashMap<>(p.headers());
        h.putAll(headers);
        return new ApiProblem(p.status(), p.code(), p.title(), p.detail(), p.errors(), h);
    }

    private static JsonNode body(RawRequest r) {
        String type = r.header("Content-Type").orElse("");
        if (!RequestJson.isJsonMediaType(type)) {
            throw new ApiProblem(415, "unsupported_media_type", "Unsupported Media Type",
                    "The body must be JSON in UTF-8, sent with Content-Type: application/json.");
        }
        try {
            JsonNode body = RequestJson.readRequest(r.body());
            if (body == null || body.isMissingNode()) {
                throw new ApiProblem(400, "missing_body", "Bad Request", "This route needs a JSON body.");
            }
            return body;
        } catch (RequestJson.InvalidJson e) {
            throw new ApiProblem(400, "invalid_json", "Bad Request", e.getMessage(),
                    List.of(new FieldError("", "json", "invalid JSON")), Map.of());
        }
    }

    /** Preflight: only origins some widget allows get an answer a browser accepts. */
    private RawResponse preflight(RawRequest r) {
        ChatService.Cors cors = cors(r);
        Map<String, String> h = new LinkedHashMap<>(cors.headers());
        if (!h.containsKey("Access-Control-Allow-Origin")) {
            throw withHeaders(ChatService.originNotAllowed("The origin " + r.header("Origin").orElse("(none)")
                    + " is not allowed for any chat widget."), h);
        }
        h.put("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
        h.put("Access-Control-Allow-Headers", "Content-Type, Last-Event-ID");
        h.put("Access-Control-Max-Age", "600");
        return new RawResponse(204, h, null, null);
    }

    private static RawResponse preflightScript() {
        return new RawResponse(204, Map.of("Access-Control-Allow-Origin", "*",
                "Access-Control-Allow-Methods", "GET, OPTIONS", "Access-Control-Max-Age", "600"), null, null);
    }

    /** The loader: an hour of caching (immutable for a versioned URL), ETag, and * as CORS origin for the script. */
    private RawResponse script(RawRequest r) {
        WidgetScript s = script.get();
        if (s == null) {
            throw new ApiProblem(404, "widget_script_missing", "Not Found",
                    "This build of the chatbot plugin has no widget.js.");
        }
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Access-Control-Allow-Origin", "*");
        h.put("ETag", s.etag());
        boolean versioned = r.query("v").map(s.version()::equals).orElse(false);
        h.put("Cache-Control", versioned ? "public, max-age=31536000, immutable" : "public, max-age=3600");
        h.put("X-Content-Type-Options", "nosniff");
        if (r.header("If-None-Match").map(v -> v.contains(s.etag())).orElse(false)) {
            return new RawResponse(304, h, null, null);
        }
        return new RawResponse(200, h, "text/javascript; charset=utf-8", s.bytes());
    }

    /**
     * Server-Sent Events: {@code retry: 3000}, then every event after {@code Last-Event-ID} (header, or the
     * {@code last_event_id} parameter), new ones as they are written (by any node: they are rows), {@code : ping}
     * heartbeats, and {@code token.expired} when the token's time is up.
     */
    private RawResponse stream(RawRequest r) throws Exception {
        ChatService.Cors cors = cors(r);
        ChatService.Visitor visitor;
        Instant expires;
        long lastId;
        StreamSignals.Bell bell;
        try {
            visitor = chat().streamVisitor(r, cors);
            expires = tokenExpiry(r.query("token").orElseThrow());
            lastId = lastEventId(r);
            bell = signals.get().open(visitor.sessionId(), r.clientAddress().orElse("unknown"), chatSettings.get());
        } catch (ApiProblem p) {
            throw withHeaders(p, cors.headers());
        }
        Map<String, String> h = new LinkedHashMap<>(cors.headers());
        h.put("Cache-Control", "no-store");
        h.put("X-Accel-Buffering", "no");
        return RawResponse.stream(200, h, "text/event-stream; charset=utf-8", out -> {
            write(out, "retry: 3000\n\n");
            long last = lastId;
            long lastWrite = System.nanoTime();
            Duration heartbeat = chatSettings.get().heartbeat();
            try (bell) {
                while (!stopping.get()) {
                    Instant now = Instant.now();
                    if (!now.isBefore(expires)) {
                        write(out, "event: " + ChatbotEvents.TOKEN_EXPIRED + "\ndata: {}\n\n");
                        return;
                    }
                    bell.reset();
                    List<ChatRepository.Event> events = chat().eventsAfter(visitor, last);
                    if (!events.isEmpty()) {
                        StringBuilder sb = new StringBuilder();
                        for (var e : events) {
                            sb.append("id: ").append(e.id()).append("\nevent: ").append(e.name()).append("\ndata: ")
                                    .append(e.data()).append("\n\n");
                            last = e.id();
                        }
                        write(out, sb.toString());
                        lastWrite = System.nanoTime();
                    } else if (System.nanoTime() - lastWrite >= heartbeat.toNanos()) {
                        write(out, ": ping\n\n");
                        lastWrite = System.nanoTime();
                    }
                    if (events.size() < 200) {
                        // Until notified, the next heartbeat, the token's end or the fallback re-read.
                        Duration untilPing = heartbeat.minusNanos(System.nanoTime() - lastWrite);
                        Duration wait = min(min(chatSettings.get().pollInterval(), untilPing),
                                Duration.between(Instant.now(), expires));
                        try {
                            bell.await(wait);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }
            }
        });
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private Instant tokenExpiry(String token) {
        try {
            String payload = token.split("\\.")[1];
            JsonNode claims = Json.parse(new String(java.util.Base64.getUrlDecoder().decode(payload),
                    StandardCharsets.UTF_8));
            return Instant.ofEpochSecond(claims.get("exp").asLong());
        } catch (RuntimeException e) {
            throw new ApiProblem(401, "invalid_token", "Unauthorized", "The chat token is not valid.");
        }
    }

    private static long lastEventId(RawRequest r) {
        String value = r.header("Last-Event-ID").or(() -> r.query("last_event_id")).orElse("0").strip();
        if (value.isEmpty()) {
            return 0;
        }
        try {
            return Math.max(0, Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw new ApiProblem(400, "invalid_last_event_id", "Bad Request",
                    "Last-Event-ID must be the id of an event this stream sent (a number).");
        }
    }
}
