package dev.lnp.plugins.chatbot;

import static dev.lnp.plugins.chatbot.KnowledgeApi.ask;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The workspace's knowledge over HTTP on a real PostgreSQL: a Markdown file and an HTML page imported through the
 * API, indexed in the background, found by questions that share few words with them, "nothing relevant" for a
 * question they do not answer, incremental re-indexing, the refusals naming their field, and the widget's answers.
 */
@PlatformTest(plugins = {"projects", "issues", "chatbot"}, config = {"lnp.chatbot.knowledge.index_interval=PT0.2S"})
class KnowledgeTest {

    static final String RETURNS = """
            # Returns and refunds

            Everything about sending an order back.

            ## Returning an item

            You can send any item back within 30 days of delivery. Print the prepaid label from your account page,
            pack the item in its original box and drop it at any post office.

            ## When the refund arrives

            Once the warehouse has checked the parcel, the money goes back to the card you paid with. Banks usually
            show it within five working days.
            """;

    static final String SHIPPING_HTML = """
            <html><head><title>Shipping</title><script>var x = "never indexed";</script></head>
            <body><nav>Home | Shop | Help</nav><main>
            <h1>Shipping</h1>
            <h2 id="abroad">Delivery to other countries</h2>
            <p>We deliver to all countries of the European Union and to Switzerland. Parcels abroad take four to seven
            days.</p>
            <h2>Tracking a parcel</h2>
            <ul><li>Each parcel has a tracking number, sent by e-mail when it leaves the warehouse.</li></ul>
            </main><footer>Copyright</footer></body></html>
            """;

    private final TestPlatform platform;
    private final ChatClient chat;

    KnowledgeTest(TestPlatform platform) {
        this.platform = platform;
        this.chat = new ChatClient(platform);
    }

    @Test
    void importedFilesAreIndexedAndFoundByMeaning() throws Exception {
        UUID ws = platform.createWorkspace("knowledge");
        String key = platform.fullAccessKey(ws);
        JsonNode md = create(key, Json.object().put("kind", "markdown").put("url", "https://help.example/returns")
                .put("content", RETURNS));
        assertEquals("Returns and refunds", md.get("title").asText(), "the file's first heading is its title");
        assertEquals("pending", md.get("status").asText());
        create(key, Json.object().put("kind", "html").put("url", "https://help.example/shipping")
                .put("content", SHIPPING_HTML));
        JsonNode progress = awaitIndexed(key);
        assertEquals(2, progress.get("indexed").asInt(), progress.toString());
        // The Markdown file's lead joins its first section: two passages; the page: two sections under its h1.
        assertEquals(4, progress.get("passages").asInt(), progress.toString());

        // A paraphrase sharing almost no word with the passage.
        JsonNode refund = ask(platform, key, "how long until I get my money back?");
        assertEquals("When the refund arrives", refund.get(0).get("section").asText(), refund.toString());
        assertEquals("https://help.example/returns#when-the-refund-arrives", refund.get(0).get("url").asText());
        JsonNode abroad = ask(platform, key, "do you ship to Switzerland");
        assertEquals("https://help.example/shipping#abroad", abroad.get(0).get("url").asText(), abroad.toString());
        assertTrue(abroad.toString().indexOf("never indexed") < 0, "scripts are not content");
        // Nothing relevant is a real outcome.
        assertEquals(0, ask(platform, key, "what is the boiling point of mercury").size());

        // Another workspace does not see these passages.
        String other = platform.fullAccessKey(platform.createWorkspace("knowledge-other"));
        assertEquals(0, ask(platform, other, "how long until I get my money back?").size());
    }

    @Test
    void anEditKeepsTheEmbeddingsOfUnchangedPassages() throws Exception {
        UUID ws = platform.createWorkspace("knowledge-edit");
        String key = platform.fullAccessKey(ws);
        String id = create(key, Json.object().put("kind", "markdown").put("content", RETURNS)).get("id").asText();
        awaitIndexed(key);
        List<byte[]> before = embeddings(id);
        TestResponse patched = platform.patch("/api/v1/chatbot/knowledge/sources/" + id, key,
                Json.object().put("content", RETURNS.replace("five working days", "three working days")).toString());
        assertEquals(200, patched.status(), patched.toString());
        awaitIndexed(key);
        List<byte[]> after = embeddings(id);
        assertEquals(2, after.size());
        assertTrue(java.util.Arrays.equals(before.get(0), after.get(0)), "the unchanged passage kept its vector");
        assertNotEquals(java.util.Arrays.toString(before.get(1)), java.util.Arrays.toString(after.get(1)));
        assertTrue(ask(platform, key, "when will the refund show up").get(0).get("text").asText().contains("three"));

        assertEquals(200, platform.delete("/api/v1/chatbot/knowledge/sources/" + id, key).status());
        assertEquals(0, ask(platform, key, "when will the refund show up").size(), "a deleted source is forgotten at once");
    }

    @Test
    void refusalsNameTheirField() {
        String key = platform.fullAccessKey(platform.createWorkspace("knowledge-refusals"));
        TestResponse noTitle = platform.post("/api/v1/chatbot/knowledge/sources", key,
                "{\"kind\":\"article\",\"content\":\"Some text\"}");
        assertEquals(422, noTitle.status(), noTitle.toString());
        assertEquals("/title", noTitle.json().get("errors").get(0).get("pointer").asText());
        TestResponse untitledFile = platform.post("/api/v1/chatbot/knowledge/sources", key,
                "{\"kind\":\"markdown\",\"content\":\"Just a paragraph.\"}");
        assertEquals(422, untitledFile.status(), untitledFile.toString());
        assertEquals("/title", untitledFile.json().get("errors").get(0).get("pointer").asText());
        TestResponse badUrl = platform.post("/api/v1/chatbot/knowledge/sources", key,
                "{\"kind\":\"article\",\"title\":\"T\",\"content\":\"x\",\"url\":\"javascript:alert(1)\"}");
        assertEquals(422, badUrl.status());
        assertEquals("/url", badUrl.json().get("errors").get(0).get("pointer").asText());
        TestResponse badKind = platform.post("/api/v1/chatbot/knowledge/sources", key,
                "{\"kind\":\"pdf\",\"content\":\"x\"}");
        assertEquals(422, badKind.status());
        assertEquals(404, platform.get("/api/v1/chatbot/knowledge/sources/" + UUID.randomUUID(), key).status());
        TestResponse emptyQuestion = platform.post("/api/v1/chatbot/knowledge/search", key, "{\"question\":\"\"}");
        assertEquals(422, emptyQuestion.status());
        assertEquals(403, platform.post("/api/v1/chatbot/knowledge/sources",
                platform.key(platform.createWorkspace("knowledge-reader"), "chatbot.read"),
                "{\"kind\":\"article\",\"title\":\"T\",\"content\":\"x\"}").status());
    }

    @Test
    void theWidgetAnswersWithTheBestPassageOrSaysItDoesNotKnow() throws Exception {
        UUID ws = platform.createWorkspace("knowledge-widget");
        String key = platform.fullAccessKey(ws);
        create(key, Json.object().put("kind", "markdown").put("url", "https://help.example/returns")
                .put("content", RETURNS));
        // A widget's article is knowledge of the whole workspace too.
        JsonNode widget = chat.createWidget(ws, "");
        TestResponse article = platform.post("/api/v1/chatbot/widgets/" + widget.get("id").asText() + "/articles", key,
                "{\"title\":\"Opening hours\",\"body\":\"Our shop in Bern is open Monday to Saturday, 9:00 to "
                        + "18:00.\"}");
        assertEquals(201, article.status(), article.toString());
        awaitIndexed(key);
        String widgetKey = widget.get("key").asText();
        JsonNode session = chat.session(widgetKey);
        String sid = session.get("session_id").asText();
        assertEquals(202, chat.message(session, "I want my money back, when does it arrive?", null).status());
        JsonNode messages = chat.awaitHistory(widgetKey, sid, m -> m.size() >= 2);
        JsonNode answer = messages.get(1);
        assertTrue(answer.get("text").asText().startsWith("Returns and refunds › When the refund arrives: Once the "
                + "warehouse"), answer.toString());
        assertEquals("https://help.example/returns#when-the-refund-arrives",
                answer.get("citations").get(0).get("url").asText());

        assertEquals(202, chat.message(session, "when does the shop open on saturdays?", null).status());
        messages = chat.awaitHistory(widgetKey, sid, m -> m.size() >= 4);
        assertTrue(messages.get(3).get("text").asText().contains("9:00 to 18:00"), messages.toString());

        assertEquals(202, chat.message(session, "which vaccines does my cat need", null).status());
        messages = chat.awaitHistory(widgetKey, sid, m -> m.size() >= 6);
        String unknown = messages.get(5).get("text").asText();
        assertTrue(unknown.startsWith("I don't know"), unknown);
        assertTrue(unknown.contains("Talk to a person"), unknown);
        assertEquals(0, messages.get(5).get("citations").size());
    }

    private JsonNode create(String key, JsonNode body) {
        TestResponse r = platform.post("/api/v1/chatbot/knowledge/sources", key, body.toString());
        if (r.status() != 201) {
            throw new AssertionError(r.toString());
        }
        return r.data();
    }

    private JsonNode awaitIndexed(String key) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        JsonNode progress = null;
        while (System.nanoTime() < deadline) {
            progress = platform.get("/api/v1/chatbot/knowledge", key).data();
            if (progress.get("pending").asInt() == 0 && progress.get("sources").asInt() > 0) {
                return progress;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("never indexed: " + progress);
    }

    private List<byte[]> embeddings(String sourceId) {
        return platform.jdbi().withHandle(h -> h.createQuery("SELECT embedding FROM chatbot.knowledge_passages "
                        + "WHERE source_id = :id ORDER BY ordinal").bind("id", UUID.fromString(sourceId))
                .mapTo(byte[].class).list());
    }
}
