package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Widgets and keys, the handshake's refusals, tokens (tampering, legacy key), CORS, history, limits. */
@PlatformTest(plugins = {"projects", "issues", "chatbot"}, config = {"lnp.chatbot.limits.session_per_minute=4"})
class ChatbotApiTest {

    private final TestPlatform platform;
    private final ChatClient chat;

    ChatbotApiTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    @Test
    void widgetsAreManagedWithKeysShownOnceAndStrictOrigins() {
        UUID ws = platform.createWorkspace("widgets");
        String admin = platform.fullAccessKey(ws);
        JsonNode created = chat.createWidget(ws, ",\"theme\":{\"accent_color\":\"#AA0000\",\"position\":\"left\"}");
        String key = created.get("key").asText();
        assertTrue(key.startsWith("lnp_cxo_"), key);
        assertTrue(created.get("embed_snippet").asText().contains("data-key=\"" + key + "\""));
        assertEquals("#aa0000", created.get("theme").get("accent_color").asText());
        String id = created.get("id").asText();

        JsonNode fetched = platform.get("/api/v1/chatbot/widgets/" + id, admin).data();
        assertFalse(fetched.has("key"), "the key member is only in the answer that made it");
        assertTrue(fetched.get("embed_snippet").asText().contains("data-key=\"" + key + "\""),
                "the whole snippet is at hand whenever the widget is read: the key is public by design");
        assertEquals(created.get("key_prefix").asText(), fetched.get("key_prefix").asText());
        assertEquals(1, platform.get("/api/v1/chatbot/widgets", admin).json().get("pagination").get("total").asInt());

        for (String bad : new String[] {"https://shop.example/path", "https://*.shop.example", "shop.example",
                "ftp://shop.example"}) {
            TestResponse r = platform.post("/api/v1/chatbot/widgets", admin,
                    "{\"name\":\"x\",\"allowed_origins\":[\"" + bad + "\"]}");
            assertEquals(422, r.status(), bad + ": " + r);
            assertEquals("/allowed_origins/0", r.json().get("errors").get(0).get("pointer").asText(), r.toString());
        }
        assertEquals(422, platform.post("/api/v1/chatbot/widgets", admin,
                "{\"name\":\"x\",\"allowed_origins\":[\"https://a.example\"],\"colour\":\"red\"}").status());

        TestResponse patched = platform.patch("/api/v1/chatbot/widgets/" + id, admin, "{\"greeting\":\"Hello\"}");
        assertEquals(200, patched.status(), patched.toString());
        assertEquals("Hello", patched.data().get("greeting").asText());

        // A widget key is refused on the management API, with a reason.
        TestResponse onV1 = platform.get("/api/v1/chatbot/widgets", key);
        assertEquals(401, onV1.status());
        assertEquals("widget_key_not_allowed", onV1.json().get("code").asText());

        // Rotation: the new key is shown once, the old one stops at once.
        TestResponse rotated = platform.post("/api/v1/chatbot/widgets/" + id + "/rotate-key", admin, null);
        assertEquals(200, rotated.status(), rotated.toString());
        String newKey = rotated.data().get("key").asText();
        assertNotEquals(key, newKey);
        assertEquals("invalid_widget_key", chat.handshake(key, ChatClient.ORIGIN, ChatClient.ORIGIN, "").json()
                .get("code").asText());
        assertEquals(200, chat.handshake(newKey, ChatClient.ORIGIN, ChatClient.ORIGIN, "").status());

        // A read-only key cannot change widgets.
        String reader = platform.key(ws, "chatbot.read");
        assertEquals(403, platform.delete("/api/v1/chatbot/widgets/" + id, reader).status());
        assertEquals(200, platform.delete("/api/v1/chatbot/widgets/" + id, admin).status());
        assertEquals(404, platform.get("/api/v1/chatbot/widgets/" + id, admin).status());
        assertEquals("invalid_widget_key", chat.handshake(newKey, ChatClient.ORIGIN, ChatClient.ORIGIN, "").json()
                .get("code").asText());
    }

    @Test
    void handshakeRefusesBadKeysManagementKeysAndForeignOrigins() {
        UUID ws = platform.createWorkspace("handshake");
        String key = chat.createWidget(ws, "").get("key").asText();

        TestResponse ok = chat.handshake(key, ChatClient.ORIGIN, ChatClient.ORIGIN, "");
        assertEquals(200, ok.status(), ok.toString());
        assertEquals(ChatClient.ORIGIN, ok.header("Access-Control-Allow-Origin").orElseThrow());
        assertTrue(ok.header("Vary").orElseThrow().contains("Origin"));
        JsonNode body = ok.json();
        assertEquals("Help", body.get("widget").get("name").asText());
        assertEquals("Hi!", body.get("widget").get("greeting").asText());
        assertTrue(body.get("widget").get("streaming").asBoolean());
        assertEquals(3, body.get("token").asText().split("\\.").length);
        assertTrue(java.time.Instant.parse(body.get("token_expires_at").asText())
                .isBefore(java.time.Instant.now().plusSeconds(15 * 60 + 1)));

        assertProblem(chat.handshake("lnp_cxo_doesnotexist000000000000000", ChatClient.ORIGIN, ChatClient.ORIGIN, ""),
                401, "invalid_widget_key");
        TestResponse management = chat.handshake(platform.fullAccessKey(ws), ChatClient.ORIGIN, ChatClient.ORIGIN, "");
        assertProblem(management, 401, "management_key_not_allowed");
        assertTrue(management.json().get("detail").asText().contains("never put a management key in a web page")
                || management.json().get("detail").asText().contains("Never put a management key in a web page"));
        // The page's Origin header and the body's origin must agree, and be allowed.
        assertProblem(chat.handshake(key, ChatClient.ORIGIN, "https://evil.example", ""), 403, "origin_not_allowed");
        TestResponse foreign = chat.handshake(key, "https://evil.example", "https://evil.example", "");
        assertProblem(foreign, 403, "origin_not_allowed");
        assertTrue(foreign.header("Access-Control-Allow-Origin").isEmpty(), "no CORS answer for a foreign origin");
        assertProblem(chat.handshake(key, ChatClient.ORIGIN, null, ""), 403, "origin_not_allowed");
        // Strict body.
        assertProblem(chat.handshake(key, ChatClient.ORIGIN, ChatClient.ORIGIN, ",\"colour\":\"red\""), 422,
                "validation_failed");
        TestResponse missing = platform.send("POST", "/api/cxo/config", null, "{\"api_key\":\"" + key + "\"}",
                Map.of("Origin", ChatClient.ORIGIN));
        assertProblem(missing, 422, "validation_failed");
        assertEquals(2, missing.json().get("errors").size(), missing.toString());

        // Resuming a conversation of the page's sessionStorage; a foreign id gets a new one.
        String sid = body.get("session_id").asText();
        assertEquals(sid, chat.handshake(key, ChatClient.ORIGIN, ChatClient.ORIGIN, ",\"session_id\":\"" + sid + "\"")
                .json().get("session_id").asText());
        String other = chat.createWidget(ws, "").get("key").asText();
        assertNotEquals(sid, chat.handshake(other, ChatClient.ORIGIN, ChatClient.ORIGIN,
                ",\"session_id\":\"" + sid + "\"").json().get("session_id").asText());
    }

    @Test
    void tokensAreBoundToTheirSessionAndRefusedWhenTampered() throws Exception {
        UUID ws = platform.createWorkspace("tokens");
        String key = chat.createWidget(ws, "").get("key").asText();
        JsonNode a = chat.session(key);
        JsonNode b = chat.session(key);
        String token = a.get("token").asText();

        TestResponse accepted = chat.message(a, "hello", null);
        assertEquals(202, accepted.status(), accepted.toString());
        assertEquals("processing", accepted.json().get("status").asText());
        UUID.fromString(accepted.json().get("run_id").asText());

        // Another session's id with this token.
        ObjectNode crossed = (ObjectNode) a.deepCopy();
        crossed.put("session_id", b.get("session_id").asText());
        assertProblem(chat.message(crossed, "hi", null), 403, "session_mismatch");
        assertProblem(platform.send("GET", "/api/cxo/history?session_id=" + b.get("session_id").asText() + "&token="
                + token, null, null, Map.of()), 403, "session_mismatch");

        String[] parts = token.split("\\.");
        // A changed claim (the session), signature kept.
        ObjectNode claims = (ObjectNode) Json.parse(decode(parts[1]));
        claims.put("sid", b.get("session_id").asText());
        assertInvalid(parts[0] + "." + encode(claims.toString()) + "." + parts[2], b);
        // alg none, no signature.
        assertInvalid(encode("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + parts[1] + ".", a);
        // Another key id.
        ObjectNode header = (ObjectNode) Json.parse(decode(parts[0]));
        header.put("kid", UUID.randomUUID().toString());
        assertInvalid(encode(header.toString()) + "." + parts[1] + "." + parts[2], a);
        assertInvalid("not-a-token", a);

        // Legacy: the widget key instead of a token.
        TestResponse legacy = platform.send("POST", "/api/cxo/chatbot", null, "{\"api_key\":\"" + key
                + "\",\"session_id\":\"" + a.get("session_id").asText() + "\",\"message\":\"legacy hello\"}",
                Map.of("Origin", ChatClient.ORIGIN));
        assertEquals(202, legacy.status(), legacy.toString());
        // ... but only for its own widget's sessions.
        String otherKey = chat.createWidget(ws, "").get("key").asText();
        assertProblem(platform.send("POST", "/api/cxo/chatbot", null, "{\"api_key\":\"" + otherKey
                + "\",\"session_id\":\"" + a.get("session_id").asText() + "\",\"message\":\"x\"}",
                Map.of("Origin", ChatClient.ORIGIN)), 403, "session_mismatch");
        assertProblem(platform.send("POST", "/api/cxo/chatbot", null, "{\"api_key\":\"" + platform.fullAccessKey(ws)
                + "\",\"session_id\":\"" + a.get("session_id").asText() + "\",\"message\":\"x\"}",
                Map.of()), 401, "management_key_not_allowed");
    }

    /**
     * The legacy history path (widget key and session id) stays, as the contract says: the key is public, so the
     * session id is the visitor's bearer secret. It is random, an unknown id and another widget's get the same
     * answer, and a browser on another of the widget's origins does not read the conversation.
     */
    @Test
    void theLegacyHistoryPathNeedsTheUnguessableSessionIdAndItsOrigin() {
        UUID ws = platform.createWorkspace("legacy-history");
        String key = chat.createWidget(ws, "").get("key").asText();
        JsonNode a = chat.session(key);
        JsonNode b = chat.session(key);
        UUID first = UUID.fromString(a.get("session_id").asText());
        UUID second = UUID.fromString(b.get("session_id").asText());
        assertNotEquals(first, second);
        for (UUID id : new UUID[] {first, second}) {
            assertEquals(4, id.version(), "random, not time-based: " + id);
            assertEquals(2, id.variant(), id.toString());
        }
        assertEquals(202, chat.message(a, "my order number is 4711", null).status());

        TestResponse own = chat.history(key, first.toString());
        assertEquals(200, own.status(), own.toString());
        assertEquals("my order number is 4711", own.json().get("messages").get(0).get("text").asText());
        assertEquals("no-store", own.header("Cache-Control").orElse(null));

        String otherKey = chat.createWidget(ws, "").get("key").asText();
        String foreign = chat.session(otherKey).get("session_id").asText();
        TestResponse unknown = chat.history(key, UUID.randomUUID().toString());
        TestResponse othersWidget = chat.history(key, foreign);
        assertProblem(unknown, 403, "session_mismatch");
        assertProblem(othersWidget, 403, "session_mismatch");
        assertEquals(unknown.json().get("detail").asText(), othersWidget.json().get("detail").asText(),
                "no hint which conversations exist");

        // The widget also allows http://127.0.0.1:9, but this conversation started on the shop's origin.
        assertProblem(platform.send("GET", "/api/cxo/history?session_id=" + first + "&api_key=" + key, null, null,
                Map.of("Origin", "http://127.0.0.1:9")), 403, "origin_not_allowed");
        TestResponse server = platform.send("GET", "/api/cxo/history?session_id=" + first + "&api_key=" + key, null,
                null, Map.of());
        assertEquals(200, server.status(), "a server without Origin, holding the session id: " + server);
    }

    private void assertInvalid(String token, JsonNode session) {
        ObjectNode forged = (ObjectNode) session.deepCopy();
        forged.put("token", token);
        assertProblem(chat.message(forged, "hi", null), 401, "invalid_token");
    }

    @Test
    void historyIsInOrderAndKnowledgeAnswersCiteArticlesInTheVisitorsLanguage() throws Exception {
        UUID ws = platform.createWorkspace("knowledge");
        String admin = platform.fullAccessKey(ws);
        JsonNode widget = chat.createWidget(ws, "");
        String key = widget.get("key").asText();
        String id = widget.get("id").asText();
        assertEquals(201, platform.post("/api/v1/chatbot/widgets/" + id + "/articles", admin,
                "{\"title\":\"Returning an order\",\"body\":\"You can return any order within 30 days. Print the "
                        + "return label from your account.\",\"url\":\"https://shop.example/help/returns\"}").status());
        assertEquals(201, platform.post("/api/v1/chatbot/widgets/" + id + "/articles", admin,
                "{\"title\":\"Shipping times\",\"body\":\"Parcels are shipped within two days.\"}").status());
        assertEquals(201, platform.post("/api/v1/chatbot/widgets/" + id + "/articles", admin,
                "{\"title\":\"Rücksendungen\",\"body\":\"Sie können jede Bestellung innerhalb von 30 Tagen "
                        + "zurücksenden.\",\"url\":\"https://shop.example/de/hilfe/ruecksendung\",\"language\":\"de\"}")
                .status());
        TestResponse badArticle = platform.post("/api/v1/chatbot/widgets/" + id + "/articles", admin, "{\"title\":\"x\"}");
        assertEquals(422, badArticle.status());
        chat.awaitKnowledge(ws);

        JsonNode en = chat.session(key);
        String sid = en.get("session_id").asText();
        assertEquals(202, chat.message(en, "How do I return my orders?", null).status());
        JsonNode messages = chat.awaitHistory(key, sid, m -> m.size() >= 2);
        assertEquals("visitor", messages.get(0).get("role").asText());
        assertEquals("How do I return my orders?", messages.get(0).get("text").asText());
        JsonNode answer = messages.get(1);
        assertEquals("assistant", answer.get("role").asText());
        assertTrue(answer.get("text").asText().contains("30 days"), answer.toString());
        assertEquals("Returning an order", answer.get("citations").get(0).get("title").asText());
        assertEquals("https://shop.example/help/returns", answer.get("citations").get(0).get("url").asText());
        assertEquals(messages.get(0).get("run_id").isNull(), true);
        assertFalse(answer.get("run_id").isNull());

        assertEquals(202, chat.message(en, "shipping", null).status());
        messages = chat.awaitHistory(key, sid, m -> m.size() >= 4);
        assertEquals("shipping", messages.get(2).get("text").asText());
        assertEquals("Shipping times", messages.get(3).get("citations").get(0).get("title").asText());
        for (int i = 1; i < messages.size(); i++) {
            assertTrue(messages.get(i - 1).get("created_at").asText().compareTo(messages.get(i).get("created_at")
                    .asText()) <= 0, "oldest first");
        }

        // A German visitor (Accept-Language) gets the German article: stemming of the german configuration.
        TestResponse de = platform.send("POST", "/api/cxo/config", null, "{\"api_key\":\"" + key + "\",\"origin\":\""
                + ChatClient.ORIGIN + "\",\"url\":\"" + ChatClient.ORIGIN + "/de\"}",
                Map.of("Origin", ChatClient.ORIGIN, "Accept-Language", "de-DE,de;q=0.9,en;q=0.5"));
        assertEquals(200, de.status(), de.toString());
        assertEquals(202, chat.message(de.json(), "Wie funktioniert die Rücksendung einer Bestellung?", null).status());
        JsonNode deMessages = chat.awaitHistory(key, de.json().get("session_id").asText(), m -> m.size() >= 2);
        assertEquals("Rücksendungen", deMessages.get(1).get("citations").get(0).get("title").asText(),
                deMessages.toString());

        // Nothing found: a polite answer without citations.
        assertEquals(202, chat.message(en, "zyxwv qwerty", null).status());
        messages = chat.awaitHistory(key, sid, m -> m.size() >= 6);
        assertTrue(messages.get(5).get("text").asText().startsWith("I don't know"), messages.get(5).toString());
        assertEquals(0, messages.get(5).get("citations").size());
    }

    @Test
    void corsAnswersTheExactOriginAndPreflightsRefuseOthers() {
        UUID ws = platform.createWorkspace("cors");
        chat.createWidget(ws, "");
        TestResponse preflight = platform.send("OPTIONS", "/api/cxo/chatbot", null, null, Map.of("Origin",
                ChatClient.ORIGIN, "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers",
                "content-type"));
        assertEquals(204, preflight.status(), preflight.toString());
        assertEquals(ChatClient.ORIGIN, preflight.header("Access-Control-Allow-Origin").orElseThrow());
        assertTrue(preflight.header("Access-Control-Allow-Headers").orElseThrow().contains("Content-Type"));
        assertTrue(preflight.header("Access-Control-Allow-Methods").orElseThrow().contains("POST"));

        TestResponse refused = platform.send("OPTIONS", "/api/cxo/config", null, null, Map.of("Origin",
                "https://evil.example", "Access-Control-Request-Method", "POST"));
        assertEquals(403, refused.status());
        assertTrue(refused.header("Access-Control-Allow-Origin").isEmpty());
        // The script itself may be loaded from anywhere.
        TestResponse script = platform.send("OPTIONS", "/api/cxo/widget.js", null, null, Map.of("Origin",
                "https://evil.example"));
        assertEquals("*", script.header("Access-Control-Allow-Origin").orElseThrow());
    }

    @Test
    void messagesAreCappedAndRateLimitedPerSession() {
        UUID ws = platform.createWorkspace("limits");
        String key = chat.createWidget(ws, "").get("key").asText();
        JsonNode s = chat.session(key);
        TestResponse tooLong = chat.message(s, "x".repeat(2001), null);
        assertProblem(tooLong, 422, "message_too_long");
        assertEquals("/message", tooLong.json().get("errors").get(0).get("pointer").asText());
        assertProblem(chat.message(s, "   ", null), 422, "validation_failed");
        TestResponse unknownContext = chat.message(s, "hi", "{\"colour\":1}");
        assertProblem(unknownContext, 422, "validation_failed");
        assertEquals("/context/colour", unknownContext.json().get("errors").get(0).get("pointer").asText());
        // The body is checked with the schema file, with the platform's rules: a NUL cannot reach the database.
        TestResponse nul = chat.message(s, "hi\u0000there", null);
        assertProblem(nul, 422, "validation_failed");
        assertEquals("/message", nul.json().get("errors").get(0).get("pointer").asText(), nul.toString());
        for (int i = 0; i < 4; i++) {
            assertEquals(202, chat.message(s, "hello " + i, null).status());
        }
        TestResponse limited = chat.message(s, "one more", null);
        assertProblem(limited, 429, "rate_limited");
        int retry = Integer.parseInt(limited.header("Retry-After").orElseThrow());
        assertTrue(retry >= 1 && retry <= 61, "Retry-After " + retry);
        assertEquals(ChatClient.ORIGIN, limited.header("Access-Control-Allow-Origin").orElseThrow(),
                "the page can read the 429");
        // Another conversation is not limited by this one.
        assertEquals(202, chat.message(chat.session(key), "hello", null).status());
    }

    @Test
    void theLoaderIsServedWithCacheHeadersAndAnIntegrityHash() throws Exception {
        boolean built = ChatbotPlugin.class.getModule().getResourceAsStream("widget/widget.js") != null
                || ChatbotPlugin.class.getClassLoader().getResource("widget/widget.js") != null;
        TestResponse r = platform.send("GET", "/api/cxo/widget.js", null, null, Map.of());
        if (!built) {
            assertProblem(r, 404, "widget_script_missing");
            return;
        }
        assertEquals(200, r.status());
        assertTrue(r.header("Content-Type").orElseThrow().startsWith("text/javascript"));
        assertEquals("public, max-age=3600", r.header("Cache-Control").orElseThrow());
        String etag = r.header("ETag").orElseThrow();
        assertEquals(304, platform.send("GET", "/api/cxo/widget.js", null, null, Map.of("If-None-Match", etag))
                .status());
        UUID ws = platform.createWorkspace("loader");
        JsonNode widget = chat.createWidget(ws, "");
        String integrity = widget.get("script_integrity").asText();
        assertTrue(integrity.startsWith("sha384-"));
        try {
            String expected = "sha384-" + Base64.getEncoder().encodeToString(java.security.MessageDigest
                    .getInstance("SHA-384").digest(r.body().getBytes(StandardCharsets.UTF_8)));
            assertEquals(expected, integrity);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
        assertTrue(widget.get("embed_snippet").asText().contains("integrity=\"" + integrity + "\""));
    }

    static void assertProblem(TestResponse r, int status, String code) {
        assertEquals(status, r.status(), r.toString());
        assertTrue(r.header("Content-Type").orElse("").startsWith("application/problem+json"), r.toString());
        assertEquals(code, r.json().get("code").asText(), r.toString());
    }

    private static String decode(String part) {
        return new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8);
    }

    private static String encode(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
