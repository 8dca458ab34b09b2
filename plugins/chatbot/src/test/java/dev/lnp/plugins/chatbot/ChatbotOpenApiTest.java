package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.OpenApiContract;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code /openapi/v1.json} types the success of every {@code /api/v1/chatbot} route by the schema the route returns
 * (widgets, articles, identity secrets, knowledge progress, sources, search results, insights), and real answers of
 * the routes, successes and problems alike, match what it declares ({@link OpenApiContract}).
 */
@PlatformTest(plugins = {"chatbot"}, config = {"lnp.chatbot.knowledge.index_interval=PT0.2S"})
class ChatbotOpenApiTest {

    private static final String WIDGETS = "/api/v1/chatbot/widgets";
    private static final String KNOWLEDGE = "/api/v1/chatbot/knowledge";

    private final TestPlatform platform;
    private final ChatClient chat;

    ChatbotOpenApiTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    private JsonNode operation(JsonNode doc, String method, String path) {
        return doc.path("paths").path(path).path(method.toLowerCase(Locale.ROOT));
    }

    private static String schemaRef(JsonNode op, String status) {
        return op.at("/responses/" + status + "/content/application~1json/schema/$ref").asText();
    }

    @Test
    void everyChatbotRouteIsTypedByTheSchemaItReturns() {
        JsonNode doc = platform.get("/openapi/v1.json", null).json();
        Map<String, String> typed = Map.ofEntries(
                Map.entry("GET " + WIDGETS, "WidgetPage"),
                Map.entry("POST " + WIDGETS, "WidgetEnvelope"),
                Map.entry("GET " + WIDGETS + "/{id}", "WidgetEnvelope"),
                Map.entry("PATCH " + WIDGETS + "/{id}", "WidgetEnvelope"),
                Map.entry("POST " + WIDGETS + "/{id}/rotate-key", "WidgetEnvelope"),
                Map.entry("GET " + WIDGETS + "/{id}/identity-secret", "WidgetIdentitySecretEnvelope"),
                Map.entry("POST " + WIDGETS + "/{id}/rotate-identity-secret", "WidgetIdentitySecretEnvelope"),
                Map.entry("GET " + WIDGETS + "/{id}/articles", "ArticlePage"),
                Map.entry("GET " + WIDGETS + "/{id}/articles/{article_id}", "ArticleEnvelope"),
                Map.entry("GET " + KNOWLEDGE, "KnowledgeProgressEnvelope"),
                Map.entry("GET " + KNOWLEDGE + "/sources", "KnowledgeSourcePage"),
                Map.entry("POST " + KNOWLEDGE + "/sources", "KnowledgeSourceEnvelope"),
                Map.entry("GET " + KNOWLEDGE + "/sources/{id}", "KnowledgeSourceEnvelope"),
                Map.entry("POST " + KNOWLEDGE + "/sources/{id}/refresh", "KnowledgeSourceEnvelope"),
                Map.entry("POST " + KNOWLEDGE + "/search", "KnowledgeSearchResultEnvelope"),
                Map.entry("GET /api/v1/chatbot/insights", "ChatInsightsEnvelope"));
        typed.forEach((route, name) -> {
            String[] parts = route.split(" ");
            JsonNode op = operation(doc, parts[0], parts[1]);
            assertTrue(op.isObject(), route + " is listed");
            String status = op.path("responses").fieldNames().next();
            assertEquals("#/components/schemas/" + name, schemaRef(op, status), route);
        });
        // Every chatbot route declares what it answers: none keeps the free-form envelope.
        doc.path("paths").fields().forEachRemaining(path -> {
            if (path.getKey().startsWith("/api/v1/chatbot")) {
                path.getValue().fields().forEachRemaining(op -> op.getValue().path("responses").fields()
                        .forEachRemaining(r -> {
                            String answer = r.getValue().toString();
                            assertFalse(r.getKey().startsWith("2") && (answer.contains("/schemas/Envelope\"")
                                    || answer.contains("/schemas/PageEnvelope\"")),
                                    op.getKey() + " " + path.getKey() + " declares its response");
                        }));
            }
        });
        assertEquals(Json.resource(ChatbotPlugin.class, "schemas/widget.json").path("properties"),
                doc.at("/components/schemas/Widget/properties"), "the route's schema file, once");
        assertEquals("Help centre", operation(doc, "GET", WIDGETS + "/{id}")
                .at("/responses/200/content/application~1json/example/data/name").asText());
    }

    @Test
    void realAnswersMatchTheDocument() throws Exception {
        OpenApiContract contract = OpenApiContract.of(platform);
        UUID ws = platform.createWorkspace("chatbot-openapi");
        String key = platform.fullAccessKey(ws);

        // Widgets and their articles.
        TestResponse created = contract.check("POST", WIDGETS, platform.post(WIDGETS, key,
                "{\"name\":\"Help\",\"greeting\":\"Hi!\",\"allowed_origins\":[\"" + ChatClient.ORIGIN + "\"]}"));
        assertEquals(201, created.status(), created.toString());
        String id = created.data().path("id").asText();
        String widgetKey = created.data().path("key").asText();
        contract.check("GET", WIDGETS, platform.get(WIDGETS, key));
        contract.check("GET", WIDGETS + "/{id}", platform.get(WIDGETS + "/" + id, key));
        contract.check("PATCH", WIDGETS + "/{id}", platform.patch(WIDGETS + "/" + id, key,
                "{\"greeting\":\"Hello\",\"human_handoff\":false}"));
        assertEquals(200, contract.check("GET", WIDGETS + "/{id}/identity-secret",
                platform.get(WIDGETS + "/" + id + "/identity-secret", key)).status());
        contract.check("POST", WIDGETS + "/{id}/rotate-identity-secret",
                platform.post(WIDGETS + "/" + id + "/rotate-identity-secret", key, null));
        String article = contract.check("POST", WIDGETS + "/{id}/articles", platform.post(WIDGETS + "/" + id
                + "/articles", key, "{\"title\":\"Opening hours\",\"body\":\"We are open from 9 to 5.\"}")).data()
                .path("id").asText();
        contract.check("GET", WIDGETS + "/{id}/articles", platform.get(WIDGETS + "/" + id + "/articles", key));
        contract.check("GET", WIDGETS + "/{id}/articles/{article_id}",
                platform.get(WIDGETS + "/" + id + "/articles/" + article, key));
        contract.check("PATCH", WIDGETS + "/{id}/articles/{article_id}", platform.patch(WIDGETS + "/" + id
                + "/articles/" + article, key, "{\"title\":\"When we are open\"}"));

        // The knowledge: a source, indexed in the background, then found.
        TestResponse source = contract.check("POST", KNOWLEDGE + "/sources", platform.post(KNOWLEDGE + "/sources",
                key, Json.object().put("kind", "markdown").put("url", "https://help.example/returns")
                        .put("content", KnowledgeTest.RETURNS).toString()));
        assertEquals(201, source.status(), source.toString());
        String sourceId = source.data().path("id").asText();
        awaitIndexed(contract, key);
        contract.check("GET", KNOWLEDGE + "/sources", platform.get(KNOWLEDGE + "/sources?limit=10", key));
        contract.check("GET", KNOWLEDGE + "/sources/{id}", platform.get(KNOWLEDGE + "/sources/" + sourceId, key));
        contract.check("PATCH", KNOWLEDGE + "/sources/{id}", platform.patch(KNOWLEDGE + "/sources/" + sourceId, key,
                "{\"language\":\"en\"}"));
        TestResponse found = contract.check("POST", KNOWLEDGE + "/search", platform.post(KNOWLEDGE + "/search", key,
                "{\"question\":\"how long until I get my money back?\"}"));
        assertTrue(found.data().path("passages").size() > 0, found.toString());
        TestResponse nothing = contract.check("POST", KNOWLEDGE + "/search", platform.post(KNOWLEDGE + "/search",
                key, "{\"question\":\"which vaccines does my cat need\"}"));
        assertEquals(200, nothing.status(), nothing.toString());

        // Insights, with an answer rated down and a question the knowledge could not answer.
        JsonNode session = chat.session(widgetKey);
        String sid = session.get("session_id").asText();
        assertEquals(202, chat.message(session, "I want my money back, when does it arrive?", null).status());
        JsonNode messages = chat.awaitHistory(widgetKey, sid, m -> m.size() >= 2);
        TestResponse rated = platform.send("POST", "/api/cxo/rating", null, "{\"token\":\""
                + session.get("token").asText() + "\",\"session_id\":\"" + sid + "\",\"message_id\":\""
                + messages.get(1).get("id").asText() + "\",\"rating\":\"down\"}", Map.of("Origin", ChatClient.ORIGIN));
        assertEquals(200, rated.status(), rated.toString());
        TestResponse csat = platform.send("POST", "/api/cxo/csat", null, "{\"token\":\"" + session.get("token").asText()
                + "\",\"session_id\":\"" + sid + "\",\"score\":4}", Map.of("Origin", ChatClient.ORIGIN));
        assertEquals(200, csat.status(), csat.toString());
        assertEquals(202, chat.message(session, "which vaccines does my cat need", null).status());
        chat.awaitHistory(widgetKey, sid, m -> m.size() >= 4);
        TestResponse insights = contract.check("GET", "/api/v1/chatbot/insights",
                platform.get("/api/v1/chatbot/insights?days=7", key));
        assertEquals(1, insights.data().path("rated_down").size(), insights.toString());
        assertEquals(1, insights.data().path("unanswered").size(), insights.toString());
        assertEquals(4.0, insights.data().at("/csat/average").asDouble(), insights.toString());
        contract.check("GET", "/api/v1/chatbot/insights", platform.get("/api/v1/chatbot/insights",
                platform.fullAccessKey(platform.createWorkspace("chatbot-openapi-empty"))));

        // Deletions and the problems the routes answer.
        contract.check("DELETE", WIDGETS + "/{id}/articles/{article_id}",
                platform.delete(WIDGETS + "/" + id + "/articles/" + article, key));
        assertEquals(409, contract.check("POST", KNOWLEDGE + "/sources/{id}/refresh",
                platform.post(KNOWLEDGE + "/sources/" + sourceId + "/refresh", key, null)).status());
        contract.check("DELETE", KNOWLEDGE + "/sources/{id}", platform.delete(KNOWLEDGE + "/sources/" + sourceId, key));
        assertEquals(404, contract.check("GET", KNOWLEDGE + "/sources/{id}",
                platform.get(KNOWLEDGE + "/sources/" + sourceId, key)).status());
        assertEquals(422, contract.check("POST", KNOWLEDGE + "/sources", platform.post(KNOWLEDGE + "/sources", key,
                "{\"kind\":\"pdf\",\"content\":\"x\"}")).status());
        assertEquals(400, contract.check("GET", "/api/v1/chatbot/insights",
                platform.get("/api/v1/chatbot/insights?days=5", key)).status());
        contract.check("POST", WIDGETS + "/{id}/rotate-key", platform.post(WIDGETS + "/" + id + "/rotate-key", key,
                null));
        contract.check("DELETE", WIDGETS + "/{id}", platform.delete(WIDGETS + "/" + id, key));
        assertEquals(404, contract.check("GET", WIDGETS + "/{id}", platform.get(WIDGETS + "/" + id, key)).status());
        assertEquals(400, contract.check("GET", WIDGETS + "/{id}", platform.get(WIDGETS + "/nope", key)).status());
        assertEquals(422, contract.check("POST", WIDGETS, platform.post(WIDGETS, key,
                "{\"name\":\"x\",\"allowed_origins\":[\"shop.example\"]}")).status());
        assertEquals(401, contract.check("GET", WIDGETS, platform.get(WIDGETS, null)).status());
    }

    private void awaitIndexed(OpenApiContract contract, String key) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        JsonNode progress = null;
        while (System.nanoTime() < deadline) {
            progress = contract.check("GET", KNOWLEDGE, platform.get(KNOWLEDGE, key)).data();
            if (progress.path("pending").asInt() == 0 && progress.path("indexed").asInt() > 0) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("never indexed: " + progress);
    }
}
