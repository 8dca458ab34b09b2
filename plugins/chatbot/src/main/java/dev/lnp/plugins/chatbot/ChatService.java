package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.JsonSchemas;
import dev.lnp.api.PluginContext;
import dev.lnp.api.crm.ContactDirectory;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.RawRequest;
import dev.lnp.api.internal.http.JsonValidation;
import dev.lnp.api.internal.tokens.SessionTokens;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The public chat flows behind {@code /api/cxo/*}: handshake, messages, history, and what the stream needs. There
 * is no key in the pipeline here: the widget key (or the visitor token) is resolved first, then everything runs in
 * that widget's workspace ({@code inWorkspace}), so row-level security applies as on any other route.
 */
final class ChatService {

    static final String AUDIENCE = "lnp-cxo";
    private static final System.Logger LOG = System.getLogger(ChatService.class.getName());
    private static final int HISTORY_LIMIT = 500;

    private final Supplier<PluginContext> context;
    private final ChatSettings settings;
    private final WidgetRepository widgets;
    private final ChatRepository chats;
    private final RunWorker runs;

    ChatService(Supplier<PluginContext> context, ChatSettings settings, WidgetRepository widgets, ChatRepository chats,
            RunWorker runs) {
        this.context = context;
        this.settings = settings;
        this.widgets = widgets;
        this.chats = chats;
        this.runs = runs;
    }

    /** The public bodies' schemas: the files are what is checked (and what docs/chatbot.md shows). */
    private static final JsonNode HANDSHAKE = JsonSchemas.load(ChatService.class, "handshake.json");
    private static final JsonNode CONTACT = JsonSchemas.load(ChatService.class, "contact.json");
    private static final JsonNode MESSAGE = JsonSchemas.load(ChatService.class, "message.json");
    private static final JsonNode RATING = JsonSchemas.load(ChatService.class, "rating.json");
    private static final JsonNode CSAT = JsonSchemas.load(ChatService.class, "csat.json");

    /** Who is chatting: the widget, the session, and the origin the token was bound to. */
    record Visitor(Widget widget, UUID sessionId, String origin, Instant tokenExpiresAt) {
    }

    // Handshake.

    Map<String, Object> handshake(RawRequest request, JsonNode body, Cors cors) {
        validation().require(HANDSHAKE, body);
        limit("handshake:" + request.clientAddress().orElse("unknown"), settings.handshakePerMinute(), "handshakes from this address");
        Widget widget = widgetByKey(body.get("api_key").asText());
        cors.widget(widget);
        String origin = checkOrigins(widget, body.get("origin").asText(), request);
        String language = language(request, widget);
        String pageUrl = abbreviate(body.get("url").asText(), 2000);
        UUID ws = widget.workspaceId();
        IdentityTokens.Verified identity = identity(widget, body);
        UUID resume = body.hasNonNull("session_id") ? uuidOrNull(body.get("session_id").asText()) : null;
        ChatRepository.Session session = context.get().inWorkspace(ws, tx -> {
            if (resume != null) {
                var existing = chats.session(tx.handle(), ws, resume);
                if (existing.isPresent() && existing.get().widgetId().equals(widget.id())
                        && existing.get().origin().equals(origin) && sameVisitor(existing.get(), identity)) {
                    chats.touchSession(tx.handle(), ws, resume, pageUrl);
                    if (identity != null) {
                        // An anonymous visitor who signed in keeps their conversation, now theirs.
                        chats.setVisitor(tx.handle(), ws, resume, identity.userId(), identity.email(), identity.name());
                    }
                    return existing.get();
                }
            }
            UUID created = chats.createSession(tx.handle(), ws, widget.id(), origin, pageUrl, language);
            if (identity != null) {
                chats.setVisitor(tx.handle(), ws, created, identity.userId(), identity.email(), identity.name());
            }
            return chats.session(tx.handle(), ws, created).orElseThrow();
        });
        if (identity != null && session.contactId() == null) {
            linkContact(widget, session, identity);
        }
        UUID sessionId = session.id();
        var issued = tokens().issue(AUDIENCE, Map.of("ws", ws.toString(), "wid", widget.id().toString(),
                "sid", sessionId.toString(), "origin", origin), settings.tokenLifetime());
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("id", widget.id());
        config.put("name", widget.name());
        config.put("greeting", widget.greeting());
        config.put("theme", Map.of("accent_color", widget.accentColor(), "position", widget.position()));
        config.put("streaming", widget.streaming());
        config.put("human_handoff", widget.humanHandoff());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("session_id", sessionId);
        answer.put("token", issued.token());
        answer.put("token_expires_at", issued.expiresAt());
        // A reloaded page learns from here that its conversation is with a person (and keeps the button disabled).
        answer.put("handoff_state", session.handoffState());
        answer.put("widget", config);
        // Whether asking for a person reaches someone now, and when the team is back if not.
        answer.put("availability", OfficeHours.describe(widget.officeHours(), java.time.Instant.now()));
        return answer;
    }

    // Known visitors.

    /**
     * The visitor the handshake's identity token names; null for an anonymous visitor (no token, and the widget does
     * not require one). A token that is there but not valid is refused, never taken as anonymous.
     */
    private static IdentityTokens.Verified identity(Widget widget, JsonNode body) {
        String token = body.path("identity_token").asText(null);
        if (token != null && !token.isBlank()) {
            return IdentityTokens.verify(widget, token, Instant.now());
        }
        if (widget.requireVerifiedIdentity()) {
            throw identityRequired();
        }
        return null;
    }

    static ApiProblem identityRequired() {
        return new ApiProblem(401, "identity_required", "Unauthorized", "This chat is for signed-in visitors: the "
                + "page must pass the site's identity token (data-identity-token) in the handshake.");
    }

    /**
     * Whether a conversation may be resumed by this visitor: an anonymous one by anyone who holds its id (as before),
     * a known visitor's only by the same visitor, so a signed-out tab or another account starts a new one.
     */
    private static boolean sameVisitor(ChatRepository.Session session, IdentityTokens.Verified identity) {
        if (session.visitorUserId() == null) {
            return true;
        }
        return identity != null && session.visitorUserId().equals(identity.userId());
    }

    /**
     * Links a known visitor's conversation to the CRM contact with their address (created when new), in the widget's
     * workspace, through the CRM's {@link ContactDirectory}. In a transaction of its own after the handshake's: without
     * the CRM (not deployed, or switched off for the workspace) or when linking fails, the conversation goes on
     * unlinked, and the next handshake tries again.
     */
    private void linkContact(Widget widget, ChatRepository.Session session, IdentityTokens.Verified identity) {
        Optional<ContactDirectory> directory = context.get().service(ContactDirectory.class);
        if (directory.isEmpty()) {
            return;
        }
        UUID ws = widget.workspaceId();
        try {
            context.get().inWorkspace(ws, tx -> {
                Optional<UUID> contact = directory.get().findOrCreate(tx, identity.email(), identity.name());
                if (contact.isPresent()) {
                    chats.setContact(tx.handle(), ws, session.id(), contact.get());
                    directory.get().linkConversation(tx, contact.get(), new ContactDirectory.LinkedConversation(
                            session.id(), "Chat", widget.name(), InboxPages.INBOX + "/" + session.id(),
                            session.createdAt()));
                }
                return null;
            });
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "chat " + session.id() + " could not be linked to a CRM contact: " + e);
        }
    }

    // Message.

    Map<String, Object> message(RawRequest request, JsonNode body, Cors cors) {
        validation().require(MESSAGE, body);
        JsonNode ctx = body.path("context");
        UUID sessionId = uuid(body, "session_id");
        Visitor visitor = visitor(request, body.path("token").asText(null), body.path("api_key").asText(null),
                sessionId, cors);
        String text = body.get("message").asText().strip();
        if (text.isEmpty()) {
            throw ApiProblem.invalidField("/message", "minLength", "must not be empty");
        }
        if (text.codePointCount(0, text.length()) > settings.messageMaxChars()) {
            throw new ApiProblem(422, "message_too_long", "Unprocessable Content", "A message has at most "
                    + settings.messageMaxChars() + " characters.", List.of(new FieldError("/message", "maxLength",
                    "at most " + settings.messageMaxChars() + " characters")), Map.of());
        }
        limit("session:" + sessionId, settings.sessionPerMinute(), "messages in this conversation");
        limit("widget:" + visitor.widget().id(), settings.widgetPerMinute(), "messages to this chat");
        limit("ip:" + request.clientAddress().orElse("unknown"), settings.ipPerMinute(), "messages from this address");
        boolean requestHuman = ctx.path("request_human").asBoolean(false);
        String pageUrl = ctx.hasNonNull("page_url") ? abbreviate(ctx.get("page_url").asText(), 2000) : null;
        UUID ws = visitor.widget().workspaceId();
        UUID runId = context.get().inWorkspace(ws, tx -> {
            chats.touchSession(tx.handle(), ws, sessionId, pageUrl);
            var message = chats.insertMessage(tx.handle(), ws, UUID.randomUUID(), sessionId, "visitor", text, null,
                    Json.mapper().createArrayNode());
            return chats.createRun(tx.handle(), ws, sessionId, (UUID) message.get("id"), requestHuman);
        });
        runs.submit(ws, runId);
        return Map.of("run_id", runId, "status", "processing");
    }

    // A visitor's e-mail address, left outside office hours.

    /**
     * Stores the address on the conversation (the inbox shows it), so the team can answer by mail. Only in a
     * conversation handed over to a person: elsewhere nobody would read it.
     */
    Map<String, Object> contact(RawRequest request, JsonNode body, Cors cors) {
        validation().require(CONTACT, body);
        UUID sessionId = uuid(body, "session_id");
        Visitor visitor = visitor(request, body.path("token").asText(null), body.path("api_key").asText(null),
                sessionId, cors);
        String email = body.get("email").asText().strip();
        if (!VisitorEmail.plausible(email)) {
            throw ApiProblem.invalidField("/email", "email", "Write an e-mail address such as name@example.com.");
        }
        limit("session:" + sessionId, settings.sessionPerMinute(), "messages in this conversation");
        UUID ws = visitor.widget().workspaceId();
        context.get().inWorkspace(ws, tx -> {
            var session = chats.session(tx.handle(), ws, sessionId).orElseThrow();
            if (!session.handedOff()) {
                throw new ApiProblem(409, "not_handed_off", "Conflict", "An e-mail address is left for the team "
                        + "after asking for a person.");
            }
            VisitorEmail.store(tx.handle(), ws, sessionId, email);
            tx.events().publish(ChatbotEvents.HANDOFF_MESSAGE, HandoffRepository.payload(sessionId,
                    visitor.widget().id(), session.handoffState(), session.ticketId()));
            return null;
        });
        return Map.of("session_id", sessionId, "email", email);
    }

    // Ratings.

    /**
     * Thumbs up or down on one of the assistant's answers in the visitor's own conversation; rating again changes
     * it. Any other message (the visitor's own, a notice, a person's reply, another conversation's) is refused
     * naming {@code /message_id}.
     */
    Map<String, Object> rate(RawRequest request, JsonNode body, Cors cors) {
        validation().require(RATING, body);
        UUID sessionId = uuid(body, "session_id");
        UUID ws = rater(request, body, sessionId, cors);
        UUID messageId = uuid(body, "message_id");
        String rating = body.get("rating").asText();
        context.get().inWorkspace(ws, tx -> {
            String role = chats.roleInSession(tx.handle(), ws, sessionId, messageId).orElseThrow(() ->
                    ApiProblem.invalidField("/message_id", "message", "must be a message of this conversation"));
            if (!role.equals("assistant")) {
                throw ApiProblem.invalidField("/message_id", "assistant_message",
                        "only the assistant's answers are rated (this is a " + role + " message)");
            }
            chats.rateMessage(tx.handle(), ws, sessionId, messageId, rating.equals("up") ? 1 : -1);
            return null;
        });
        return Map.of("message_id", messageId, "rating", rating);
    }

    /** The visitor's satisfaction with the whole conversation, 1 to 5, and an optional comment; replaced when sent again. */
    Map<String, Object> csat(RawRequest request, JsonNode body, Cors cors) {
        validation().require(CSAT, body);
        UUID sessionId = uuid(body, "session_id");
        UUID ws = rater(request, body, sessionId, cors);
        int score = body.get("score").asInt();
        String comment = body.hasNonNull("comment") ? body.get("comment").asText().strip() : "";
        context.get().inWorkspace(ws, tx -> {
            chats.rateSession(tx.handle(), ws, sessionId, score, comment.isEmpty() ? null : comment);
            return null;
        });
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("session_id", sessionId);
        answer.put("score", score);
        answer.put("comment", comment.isEmpty() ? null : comment);
        return answer;
    }

    /**
     * The workspace of a visitor allowed to rate in this conversation (token or legacy key, as for messages). Ratings
     * are counted apart from messages, so rating answers never uses up what the visitor may still ask.
     */
    private UUID rater(RawRequest request, JsonNode body, UUID sessionId, Cors cors) {
        Visitor visitor = visitor(request, body.path("token").asText(null), body.path("api_key").asText(null),
                sessionId, cors);
        limit("ratings:" + sessionId, settings.sessionPerMinute(), "ratings in this conversation");
        return visitor.widget().workspaceId();
    }

    // History.

    Map<String, Object> history(RawRequest request, Cors cors) {
        UUID sessionId = uuidParam(request, "session_id");
        Visitor visitor = visitor(request, request.query("token").orElse(null), request.query("api_key").orElse(null),
                sessionId, cors);
        UUID ws = visitor.widget().workspaceId();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("session_id", sessionId);
        context.get().inWorkspace(ws, tx -> {
            answer.put("handoff_state", chats.session(tx.handle(), ws, sessionId)
                    .map(ChatRepository.Session::handoffState).orElse(null));
            var messages = chats.history(tx.handle(), ws, sessionId, HISTORY_LIMIT);
            var ratings = chats.ratings(tx.handle(), ws, sessionId);
            for (var m : messages) {
                if ("assistant".equals(m.get("role"))) {
                    m.put("rating", ratings.get((UUID) m.get("id")));
                }
            }
            answer.put("messages", messages);
            answer.put("csat", chats.sessionRating(tx.handle(), ws, sessionId).orElse(null));
            return null;
        });
        return answer;
    }

    // Stream.

    Visitor streamVisitor(RawRequest request, Cors cors) {
        UUID sessionId = uuidParam(request, "session_id");
        String token = request.query("token").orElseThrow(() -> new ApiProblem(401, "invalid_token", "Unauthorized",
                "The stream needs the token from the handshake (query parameter token)."));
        Visitor visitor = visitor(request, token, null, sessionId, cors);
        if (!visitor.widget().streaming()) {
            throw new ApiProblem(404, "streaming_disabled", "Not Found",
                    "This chat does not stream; poll /api/cxo/history instead.");
        }
        return visitor;
    }

    List<ChatRepository.Event> eventsAfter(Visitor visitor, long after) {
        UUID ws = visitor.widget().workspaceId();
        return context.get().inWorkspace(ws, tx -> chats.eventsAfter(tx.handle(), ws, visitor.sessionId(), after, 200));
    }

    // Shared checks.

    /**
     * The visitor of a request: by token (signature, expiry, bound session and origin) or, legacy, by widget key
     * (the session must be one of that widget's, and a browser's Origin the one the conversation started on). The
     * widget key is public, so on the legacy path the session id is what proves the caller is the visitor: a bearer
     * secret of the visitor's tab, random (version 4 UUID, 122 random bits) and kept in its sessionStorage.
     */
    private Visitor visitor(RawRequest request, String token, String apiKey, UUID sessionId, Cors cors) {
        if (token != null && !token.isBlank()) {
            Map<String, String> claims;
            try {
                claims = tokens().verify(AUDIENCE, token);
            } catch (SessionTokens.Rejected e) {
                if (e.expired()) {
                    throw new ApiProblem(401, "token_expired", "Unauthorized",
                            "The chat token has expired; do the handshake (POST /api/cxo/config) again.");
                }
                throw new ApiProblem(401, "invalid_token", "Unauthorized", "The chat token is not valid: "
                        + e.getMessage() + ".");
            }
            UUID ws = UUID.fromString(claims.get("ws"));
            UUID widgetId = UUID.fromString(claims.get("wid"));
            Widget widget = context.get().inWorkspace(ws, tx -> widgets.find(tx.handle(), ws, widgetId))
                    .orElseThrow(() -> new ApiProblem(401, "invalid_token", "Unauthorized",
                            "The chat token's widget no longer exists."));
            cors.widget(widget);
            if (!claims.get("sid").equals(sessionId.toString())) {
                throw new ApiProblem(403, "session_mismatch", "Forbidden",
                        "This token belongs to another conversation.");
            }
            String origin = claims.get("origin");
            Optional<String> header = request.header("Origin");
            if (header.isPresent() && !origin.equals(Origins.normalize(header.get()))) {
                throw originNotAllowed("The token was issued to " + origin + ", not to " + header.get() + ".");
            }
            if (!widget.allows(origin)) {
                throw originNotAllowed("The origin " + origin + " is no longer allowed for this chat.");
            }
            return new Visitor(widget, sessionId, origin, null);
        }
        if (apiKey == null || apiKey.isBlank()) {
            throw new ApiProblem(401, "missing_credentials", "Unauthorized",
                    "Send the token from the handshake (or, legacy, the widget key as api_key).");
        }
        Widget widget = widgetByKey(apiKey);
        cors.widget(widget);
        Optional<String> header = request.header("Origin");
        if (header.isPresent() && !widget.allows(Origins.normalize(header.get()))) {
            throw originNotAllowed("The origin " + header.get() + " is not allowed for this chat.");
        }
        UUID ws = widget.workspaceId();
        var session = context.get().inWorkspace(ws, tx -> chats.session(tx.handle(), ws, sessionId));
        // An unknown id and another widget's get the same answer: nothing tells which conversations exist.
        if (session.isEmpty() || !session.get().widgetId().equals(widget.id())) {
            throw new ApiProblem(403, "session_mismatch", "Forbidden",
                    "This conversation does not belong to this widget key.");
        }
        // A widget for signed-in visitors only: the legacy path does not get round the handshake's check.
        if (widget.requireVerifiedIdentity() && session.get().visitorUserId() == null) {
            throw identityRequired();
        }
        // As with a token (bound to its origin): a page on another of the widget's origins does not read it.
        if (header.isPresent() && !session.get().origin().equals(Origins.normalize(header.get()))) {
            throw originNotAllowed("This conversation started on " + session.get().origin() + ", not on "
                    + header.get() + ".");
        }
        return new Visitor(widget, sessionId, session.get().origin(), null);
    }

    Widget widgetByKey(String key) {
        if (WidgetKeys.isManagementKey(key)) {
            throw new ApiProblem(401, "management_key_not_allowed", "Unauthorized", "This is a management API key: "
                    + "chat endpoints take a widget key (lnp_cxo_…, from the widget's page in the console). Never put a "
                    + "management key in a web page: revoke this one if it was published.");
        }
        if (!WidgetKeys.hasShape(key)) {
            throw invalidKey();
        }
        var owner = context.get().acrossWorkspaces(h -> widgets.ownerOfKey(h, WidgetKeys.hash(key)))
                .orElseThrow(ChatService::invalidKey);
        UUID ws = owner.workspaceId();
        return context.get().inWorkspace(ws, tx -> widgets.find(tx.handle(), ws, owner.widgetId()))
                .orElseThrow(ChatService::invalidKey);
    }

    private static ApiProblem invalidKey() {
        return new ApiProblem(401, "invalid_widget_key", "Unauthorized",
                "The widget key is not valid (unknown, or replaced by a newer key).");
    }

    /** Both the body's origin and the request's Origin header must be allowed, and the same. */
    private static String checkOrigins(Widget widget, String bodyOrigin, RawRequest request) {
        String origin = Origins.normalize(bodyOrigin);
        if (origin == null) {
            throw ApiProblem.invalidField("/origin", "origin", "must be an origin: scheme://host[:port]");
        }
        Optional<String> header = request.header("Origin");
        if (header.isEmpty()) {
            throw originNotAllowed("The handshake must come from a browser page (it has no Origin header).");
        }
        if (!origin.equals(Origins.normalize(header.get()))) {
            throw originNotAllowed("The origin in the body (" + bodyOrigin + ") is not the page's origin ("
                    + header.get() + ").");
        }
        if (!widget.allows(origin)) {
            throw originNotAllowed("The origin " + origin + " is not allowed for this chat; add it to the widget's "
                    + "allowed origins.");
        }
        return origin;
    }

    static ApiProblem originNotAllowed(String detail) {
        return new ApiProblem(403, "origin_not_allowed", "Forbidden", detail);
    }

    /** Counts a hit in the current minute; 429 with Retry-After (the seconds to the next minute) beyond the limit. */
    private void limit(String bucket, int perMinute, String what) {
        Instant now = Instant.now();
        Instant window = now.truncatedTo(ChronoUnit.MINUTES);
        int hits = context.get().acrossWorkspaces(h -> chats.hit(h, bucket, window));
        if (hits > perMinute) {
            long retry = Math.max(1, Duration.between(now, window.plus(1, ChronoUnit.MINUTES)).toSeconds() + 1);
            throw new ApiProblem(429, "rate_limited", "Too Many Requests", "Too many " + what + ": at most "
                    + perMinute + " a minute. Try again in " + retry + " seconds.", List.of(),
                    Map.of("Retry-After", String.valueOf(retry)));
        }
    }

    private static String language(RawRequest request, Widget widget) {
        return request.header("Accept-Language").map(v -> v.split(",")[0].split(";")[0].strip()
                        .split("-")[0].toLowerCase(Locale.ROOT))
                .filter(l -> l.matches("[a-z]{2,3}")).orElse(widget.language());
    }

    private static UUID uuid(JsonNode body, String field) {
        UUID id = uuidOrNull(body.get(field).asText());
        if (id == null) {
            throw ApiProblem.invalidField("/" + field, "format", "must be a UUID");
        }
        return id;
    }

    private static UUID uuidParam(RawRequest request, String name) {
        String value = request.query(name).orElseThrow(() -> new ApiProblem(400, "missing_parameter", "Bad Request",
                "The query parameter " + name + " is required."));
        UUID id = uuidOrNull(value);
        if (id == null) {
            throw new ApiProblem(400, "invalid_parameter", "Bad Request", "The query parameter " + name
                    + " must be a UUID.");
        }
        return id;
    }

    private static UUID uuidOrNull(String value) {
        try {
            UUID id = UUID.fromString(value);
            return id.toString().equalsIgnoreCase(value) ? id : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }

    private JsonValidation validation() {
        return context.get().service(JsonValidation.class).orElseThrow();
    }

    private SessionTokens tokens() {
        return context.get().service(SessionTokens.class).orElseThrow();
    }

    /** The CORS answer of one request: the exact origin, once it is known to be allowed. */
    static final class Cors {
        private final String requestOrigin;
        private final Supplier<Boolean> anyWidgetAllows;
        private Widget widget;

        Cors(String requestOrigin, Supplier<Boolean> anyWidgetAllows) {
            this.requestOrigin = requestOrigin;
            this.anyWidgetAllows = anyWidgetAllows;
        }

        void widget(Widget widget) {
            this.widget = widget;
        }

        Map<String, String> headers() {
            Map<String, String> h = new LinkedHashMap<>();
            h.put("Vary", "Origin");
            String origin = Origins.normalize(requestOrigin);
            if (origin != null && (widget != null ? widget.allows(origin) : anyWidgetAllows.get())) {
                h.put("Access-Control-Allow-Origin", origin);
                h.put("Access-Control-Expose-Headers", "Retry-After");
            }
            return h;
        }
    }
}
