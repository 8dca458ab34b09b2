package dev.lnp.plugins.chatbot;

import static dev.lnp.plugins.chatbot.ChatbotApiTest.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * A widget's model server is a person's input the platform calls: an internal base URL is refused when saved,
 * naming the field, and a call to an address the guard refuses is never made. No network is allowed here.
 */
@PlatformTest(plugins = {"chatbot"})
class ChatbotOutboundGuardTest {

    private final TestPlatform platform;
    private final ChatClient chat;

    ChatbotOutboundGuardTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:11434/v1", "http://10.0.0.7/v1", "http://169.254.169.254/latest",
            "http://[::1]:8000/v1", "http://localhost:8000/v1"})
    void anInternalBaseUrlIsRefusedNamingTheField(String baseUrl) {
        UUID ws = platform.createWorkspace("inner-" + Math.abs(baseUrl.hashCode()));
        String key = platform.fullAccessKey(ws);
        TestResponse created = platform.post("/api/v1/chatbot/widgets", key, "{\"name\":\"Help\","
                + "\"allowed_origins\":[\"" + ChatClient.ORIGIN + "\"],\"responder\":\"openai\","
                + "\"responder_settings\":{\"base_url\":\"" + baseUrl + "\",\"model\":\"m\"}}");
        assertProblem(created, 422, "validation_failed");
        JsonNode error = created.json().get("errors").get(0);
        assertEquals("/responder_settings/base_url", error.get("pointer").asText(), created.toString());
        assertEquals("blocked_address", error.get("rule").asText(), created.toString());
        assertTrue(error.get("message").asText().contains("lnp.outbound.allowed_networks"), created.toString());
        assertEquals(0, platform.get("/api/v1/chatbot/widgets", key).json().get("data").size());
    }

    @Test
    void aChangeToAnInternalBaseUrlIsRefusedAndTheWidgetKeepsItsSettings() {
        UUID ws = platform.createWorkspace("patch-inner");
        String key = platform.fullAccessKey(ws);
        JsonNode widget = chat.createWidget(ws, ",\"responder\":\"openai\",\"responder_settings\":{\"model\":\"m\"}");
        String path = "/api/v1/chatbot/widgets/" + widget.get("id").asText();
        TestResponse patched = platform.patch(path, key,
                "{\"responder_settings\":{\"base_url\":\"http://192.168.1.20/v1\"}}");
        assertProblem(patched, 422, "validation_failed");
        assertEquals("/responder_settings/base_url", patched.json().get("errors").get(0).get("pointer").asText());
        TestResponse schemeless = platform.patch(path, key, "{\"responder_settings\":{\"base_url\":\"ftp://x/v1\"}}");
        assertProblem(schemeless, 422, "validation_failed");
        assertTrue(schemeless.json().get("errors").get(0).get("pointer").asText().startsWith("/responder_settings"));
        assertTrue(platform.get(path, key).json().get("data").get("responder_settings").path("base_url").isMissingNode());
    }

    /**
     * A base URL that passed its check and points inside later (a name re-pointed, a row changed): the call is
     * refused when made, the run fails visibly, and the model server never hears of it.
     */
    @Test
    void everyCallGoesThroughTheGuard() throws Exception {
        try (var fake = new FakeCompletions(List.of("never"), false)) {
            UUID ws = platform.createWorkspace("call-inner");
            JsonNode widget = chat.createWidget(ws, ",\"responder\":\"openai\",\"responder_settings\":{\"model\":\"m\"}");
            platform.jdbi().useHandle(h -> h.createUpdate("UPDATE chatbot.widgets SET responder_settings = "
                    + "jsonb_set(responder_settings, '{base_url}', to_jsonb(:url)) WHERE id = :id")
                    .bind("url", fake.baseUrl()).bind("id", UUID.fromString(widget.get("id").asText())).execute());
            String widgetKey = widget.get("key").asText();
            JsonNode s = chat.session(widgetKey);
            try (ChatClient.Stream stream = chat.stream(s.get("token").asText(), s.get("session_id").asText(), null)) {
                assertEquals(202, chat.message(s, "hello?", null).status());
                assertEquals("responder_failed", stream.next("run.failed").json().get("code").asText());
            }
            assertEquals(0, fake.requests.size(), "nothing reached the internal address");
        }
    }

    /**
     * A web page or sitemap on the loopback address is refused when it is imported (the deployment allows no inner
     * network here), naming the field; one that reaches the table anyway is refused when fetched, readably on the
     * source, and the site never hears of it.
     */
    @Test
    void aPageOnAnInternalAddressIsNeitherImportedNorFetched() throws Exception {
        try (var site = new TestSite()) {
            site.html("/page", KnowledgeTest.SHIPPING_HTML);
            UUID ws = platform.createWorkspace("web-inner");
            String key = platform.fullAccessKey(ws);
            TestResponse page = platform.post("/api/v1/chatbot/knowledge/sources", key,
                    "{\"kind\":\"url\",\"url\":\"" + site.url("/page") + "\"}");
            assertProblem(page, 422, "validation_failed");
            assertEquals("/url", page.json().get("errors").get(0).get("pointer").asText(), page.toString());
            assertEquals("blocked_address", page.json().get("errors").get(0).get("rule").asText());
            TestResponse list = platform.post("/api/v1/chatbot/knowledge/sources", key,
                    "{\"kind\":\"sitemap\",\"urls\":[\"" + site.url("/page") + "\"]}");
            assertProblem(list, 422, "validation_failed");
            assertEquals("/urls/0", list.json().get("errors").get(0).get("pointer").asText(), list.toString());

            UUID id = platform.jdbi().withHandle(h -> h.createQuery("INSERT INTO chatbot.knowledge_sources "
                    + "(workspace_id, kind, title, url, content) VALUES (:ws, 'url', 'Inner', :url, '') RETURNING id")
                    .bind("ws", ws).bind("url", site.url("/page")).mapTo(UUID.class).one());
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            JsonNode source = null;
            while (System.nanoTime() < deadline) {
                source = platform.get("/api/v1/chatbot/knowledge/sources/" + id, key).data();
                if (source.get("status").asText().equals("failed")) {
                    break;
                }
                Thread.sleep(100);
            }
            assertEquals("failed", source.get("status").asText(), source.toString());
            assertTrue(source.get("error").asText().contains("lnp.outbound.allowed_networks"), source.toString());
            assertEquals(0, site.requests.get(), "nothing reached the internal address");
        }
    }
}
