package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import dev.lnp.web.console.ConsoleSessions;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Ratings over HTTP (thumbs on an answer, CSAT of the conversation, each refusal naming its field) and what the
 * insights route and page make of them and of the questions the knowledge could not answer.
 */
@PlatformTest(plugins = {"chatbot"}, config = {"lnp.chatbot.knowledge.index_interval=PT0.2S"})
class ChatInsightsTest {

    private static final String UNKNOWN = "which vaccines does my cat need";

    private final TestPlatform platform;
    private final ChatClient chat;

    ChatInsightsTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    @Test
    void ratingsAndUnansweredQuestionsReachTheInsights() throws Exception {
        UUID ws = platform.createWorkspace("chat-insights");
        String key = platform.fullAccessKey(ws);
        TestResponse source = platform.post("/api/v1/chatbot/knowledge/sources", key, Json.object()
                .put("kind", "markdown").put("url", "https://help.example/returns").put("content", KnowledgeTest.RETURNS)
                .toString());
        assertEquals(201, source.status(), source.toString());
        JsonNode widget = chat.createWidget(ws, "");
        chat.awaitKnowledge(ws);
        String widgetKey = widget.get("key").asText();
        JsonNode session = chat.session(widgetKey);
        String sid = session.get("session_id").asText();

        assertEquals(202, chat.message(session, "I want my money back, when does it arrive?", null).status());
        JsonNode messages = chat.awaitHistory(widgetKey, sid, m -> m.size() >= 2);
        JsonNode visitorMessage = messages.get(0);
        JsonNode answer = messages.get(1);
        assertEquals("assistant", answer.get("role").asText(), messages.toString());
        assertTrue(answer.get("rating").isNull(), answer.toString());
        String answerId = answer.get("id").asText();

        // Thumbs up, then changed to down.
        TestResponse up = rate(session, sid, answerId, "\"up\"");
        assertEquals(200, up.status(), up.toString());
        assertEquals("up", up.json().get("rating").asText());
        assertEquals(200, rate(session, sid, answerId, "\"down\"").status());

        // Refusals name their field.
        assertField(rate(session, sid, visitorMessage.get("id").asText(), "\"up\""), 422, "/message_id");
        assertField(rate(session, sid, answerId, "\"meh\""), 422, "/rating");
        assertField(rate(session, sid, "not-a-uuid", "\"up\""), 422, "/message_id");
        JsonNode other = chat.session(widgetKey);
        // An answer of another conversation, rated with this conversation's token: not one of its messages.
        assertField(rate(other, other.get("session_id").asText(), answerId, "\"up\""), 422, "/message_id");
        // Another conversation's session id with this token: the token's conversation only.
        assertEquals(403, rate(session, other.get("session_id").asText(), answerId, "\"up\"").status());
        TestResponse noToken = platform.send("POST", "/api/cxo/rating", null, "{\"session_id\":\"" + sid
                + "\",\"message_id\":\"" + answerId + "\",\"rating\":\"up\"}", Map.of("Origin", ChatClient.ORIGIN));
        assertEquals(401, noToken.status(), noToken.toString());

        // CSAT: out of range refused, then 4 with a comment, changed to 2.
        assertField(csat(session, sid, "6", null), 422, "/score");
        assertField(csat(session, sid, "0", null), 422, "/score");
        assertField(csat(session, sid, "\"five\"", null), 422, "/score");
        assertEquals(200, csat(session, sid, "4", "Quick answer").status());
        TestResponse changed = csat(session, sid, "2", "The refund took longer");
        assertEquals(200, changed.status(), changed.toString());
        assertTrue(changed.header("Access-Control-Allow-Origin").isPresent(), changed.toString());

        TestResponse history = chat.history(widgetKey, sid);
        assertEquals("down", history.json().get("messages").get(1).get("rating").asText(), history.toString());
        assertEquals(2, history.json().get("csat").get("score").asInt());
        assertEquals("The refund took longer", history.json().get("csat").get("comment").asText());

        // The question nobody wrote an article for, asked three times (differently written), and once something else.
        for (String q : new String[] {UNKNOWN, "Which  vaccines does my CAT need", UNKNOWN + " "}) {
            assertEquals(202, chat.message(session, q, null).status());
        }
        JsonNode second = chat.session(widgetKey);
        assertEquals(202, chat.message(second, "how do I repair a bicycle chain", null).status());
        chat.awaitHistory(widgetKey, sid, m -> m.size() >= 8);
        chat.awaitHistory(widgetKey, second.get("session_id").asText(), m -> m.size() >= 2);
        assertEquals(200, csat(second, second.get("session_id").asText(), "5", null).status());

        TestResponse insights = platform.get("/api/v1/chatbot/insights?days=7", key);
        assertEquals(200, insights.status(), insights.toString());
        JsonNode data = insights.data();
        assertEquals(7, data.get("days").asInt());
        assertEquals(2, data.get("csat").get("count").asInt(), data.toString());
        assertEquals(3.5, data.get("csat").get("average").asDouble(), 0.001);
        assertEquals(1, data.get("csat").get("distribution").get("2").asInt());
        assertEquals(1, data.get("csat").get("distribution").get("5").asInt());
        JsonNode unanswered = data.get("unanswered");
        assertEquals(2, unanswered.size(), unanswered.toString());
        assertEquals(3, unanswered.get(0).get("count").asInt(), unanswered.toString());
        assertTrue(unanswered.get(0).get("question").asText().toLowerCase().contains("vaccines"));
        assertEquals(1, unanswered.get(1).get("count").asInt());
        JsonNode down = data.get("rated_down");
        assertEquals(1, down.size(), down.toString());
        assertEquals("I want my money back, when does it arrive?", down.get(0).get("question").asText());
        assertTrue(down.get(0).get("answer").asText().startsWith("Returns and refunds"), down.toString());
        assertEquals("https://help.example/returns#when-the-refund-arrives",
                down.get(0).get("sources").get(0).get("url").asText());
        TestResponse badPeriod = platform.get("/api/v1/chatbot/insights?days=5", key);
        assertEquals(400, badPeriod.status(), badPeriod.toString());
        assertTrue(badPeriod.body().contains("days"), badPeriod.toString());
        // Another workspace sees none of it.
        UUID elsewhere = platform.createWorkspace("chat-insights-other");
        JsonNode empty = platform.get("/api/v1/chatbot/insights", platform.fullAccessKey(elsewhere)).data();
        assertEquals(0, empty.get("unanswered").size());
        assertEquals(0, empty.get("csat").get("count").asInt());

        // Ratings have a per-minute limit of their own: past it 429, and the visitor may still ask.
        TestResponse limited = null;
        for (int i = 0; i < 45 && (limited == null || limited.status() == 200); i++) {
            limited = rate(session, sid, answerId, "\"up\"");
        }
        assertEquals(429, limited.status(), limited.toString());
        assertTrue(limited.header("Retry-After").isPresent(), limited.toString());
        assertEquals("rate_limited", limited.json().get("code").asText());
        assertEquals(202, chat.message(session, "thanks", null).status());

        // The page: an admin reads the same and follows the link to write the missing article.
        String email = "admin-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        UUID user = platform.workspaces().addUser(ws, email, "admin");
        String cookie = "lnp_console=" + new ConsoleSessions(platform.jdbi(), Duration.ofHours(1))
                .create(email, user, "test", "127.0.0.1").token();
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        String base = "http://localhost:" + platform.port();
        var page = get(http, base + ChatInsights.PAGE, cookie);
        assertEquals(200, page.statusCode(), page.body());
        String html = page.body();
        assertTrue(html.contains("Chat insights"), html);
        assertTrue(html.contains("Unanswered questions"), html);
        assertTrue(html.contains("which vaccines does my cat need"), html);
        assertTrue(html.contains("Answers rated down"), html);
        assertTrue(html.contains("3.50 of 5, from 2 rated conversations"), html);
        String link = "/app/chat/knowledge/new?title=which%20vaccines%20does%20my%20cat%20need";
        assertTrue(html.contains(link), html);
        var form = get(http, base + link, cookie);
        assertEquals(200, form.statusCode(), form.body());
        assertTrue(form.body().contains(">which vaccines does my cat need</textarea>"), form.body());
        assertTrue(get(http, base + ChatInsights.PAGE + "?days=90", cookie).body().contains("The last 90 days"));
        assertTrue(get(http, base + "/app/chat/knowledge", cookie).body().contains("Chat insights"),
                "the navigation names the page");
    }

    private TestResponse rate(JsonNode session, String sid, String messageId, String rating) {
        return platform.send("POST", "/api/cxo/rating", null, "{\"token\":\"" + session.get("token").asText()
                + "\",\"session_id\":\"" + sid + "\",\"message_id\":\"" + messageId + "\",\"rating\":" + rating + "}",
                Map.of("Origin", ChatClient.ORIGIN));
    }

    private TestResponse csat(JsonNode session, String sid, String score, String comment) {
        return platform.send("POST", "/api/cxo/csat", null, "{\"token\":\"" + session.get("token").asText()
                + "\",\"session_id\":\"" + sid + "\",\"score\":" + score + (comment == null ? ""
                : ",\"comment\":" + Json.mapper().valueToTree(comment)) + "}", Map.of("Origin", ChatClient.ORIGIN));
    }

    private static void assertField(TestResponse r, int status, String pointer) {
        assertEquals(status, r.status(), r.toString());
        assertTrue(r.header("Content-Type").orElse("").startsWith("application/problem+json"), r.toString());
        boolean named = false;
        for (JsonNode e : r.json().path("errors")) {
            named |= pointer.equals(e.path("pointer").asText());
        }
        assertTrue(named, "names " + pointer + ": " + r);
    }

    private static HttpResponse<String> get(HttpClient http, String url, String cookie) throws Exception {
        return http.send(HttpRequest.newBuilder(java.net.URI.create(url)).header("Cookie", cookie).build(),
                HttpResponse.BodyHandlers.ofString());
    }

}
