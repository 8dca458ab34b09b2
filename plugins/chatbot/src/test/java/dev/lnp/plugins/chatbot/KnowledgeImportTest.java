package dev.lnp.plugins.chatbot;

import static dev.lnp.plugins.chatbot.KnowledgeApi.ask;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Web pages and sitemaps imported into the knowledge, from a small site on the loopback address (which the
 * deployment allows here through {@code lnp.outbound.allowed_networks}; {@code ChatbotOutboundGuardTest} shows it
 * refused without): fetched in the background, indexed, fetched again on demand (an unchanged page keeps its
 * passages), failures readable on the source, bad input refused naming its field.
 */
@PlatformTest(plugins = {"chatbot"}, config = {"lnp.chatbot.knowledge.index_interval=PT0.2S",
        "lnp.outbound.allowed_networks=127.0.0.0/8"})
class KnowledgeImportTest {

    static final String SITEMAP = """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <url><loc>%s</loc><lastmod>2026-11-01</lastmod></url>
              <url><loc>%s</loc></url>
            </urlset>
            """;

    private final TestPlatform platform;

    KnowledgeImportTest(TestPlatform platform) {
        this.platform = platform;
    }

    @Test
    void aPageIsFetchedInTheBackgroundAndFetchedAgainOnDemand() throws Exception {
        try (var site = new TestSite()) {
            site.html("/help/shipping", KnowledgeTest.SHIPPING_HTML);
            String key = platform.fullAccessKey(platform.createWorkspace("web-page"));
            JsonNode created = create(key, Json.object().put("kind", "url").put("url", site.url("/help/shipping")));
            assertEquals("url", created.get("kind").asText());
            assertEquals("pending", created.get("status").asText(), "nothing is fetched on the request's thread");
            String id = created.get("id").asText();
            JsonNode source = awaitSettled(key, id);
            assertEquals("indexed", source.get("status").asText(), source.toString());
            assertEquals("Shipping", source.get("title").asText(), "the page's <title> names it");
            assertTrue(source.get("fetched_at").isTextual());
            assertEquals(2, source.get("passages").asInt(), source.toString());
            JsonNode found = ask(platform, key, "do you ship to Switzerland");
            assertEquals(site.url("/help/shipping") + "#abroad", found.get(0).get("url").asText(), found.toString());
            assertFalse(found.toString().contains("never indexed"), "the page's script is no content");

            // Fetched again unchanged: the same passages, untouched (ids and embeddings).
            List<String> before = passageIds(id);
            int served = site.requests.get();
            TestResponse refreshed = platform.post("/api/v1/chatbot/knowledge/sources/" + id + "/refresh", key, "");
            assertEquals(202, refreshed.status(), refreshed.toString());
            assertEquals("pending", refreshed.data().get("status").asText());
            source = awaitSettled(key, id);
            assertEquals("indexed", source.get("status").asText(), source.toString());
            assertEquals(served + 1, site.requests.get(), "fetched once more");
            assertEquals(before, passageIds(id), "an unchanged page keeps its passages and their embeddings");

            // The page changed: fetched again, its new text answers.
            site.html("/help/shipping", KnowledgeTest.SHIPPING_HTML.replace("four to seven", "two to three"));
            assertEquals(202, platform.post("/api/v1/chatbot/knowledge/sources/" + id + "/refresh", key, "").status());
            awaitSettled(key, id);
            assertTrue(ask(platform, key, "how long does delivery abroad take").get(0).get("text").asText()
                    .contains("two to three"));
        }
    }

    @Test
    void aSitemapOrAListOfAddressesImportsEachPage() throws Exception {
        try (var site = new TestSite()) {
            site.html("/returns", "<html><head><title>Returns</title></head><body><main><h2>Sending it back</h2>"
                    + "<p>You can send any item back within 30 days of delivery.</p></main></body></html>");
            site.html("/shipping", KnowledgeTest.SHIPPING_HTML);
            site.page("/sitemap.xml", "application/xml", SITEMAP.formatted(site.url("/returns"), site.url("/shipping")));
            String key = platform.fullAccessKey(platform.createWorkspace("web-sitemap"));
            JsonNode sitemap = create(key, Json.object().put("kind", "sitemap").put("url", site.url("/sitemap.xml")));
            assertEquals("sitemap", sitemap.get("kind").asText());
            awaitAllSettled(key);
            List<JsonNode> pages = pagesOf(key, sitemap.get("id").asText());
            assertEquals(2, pages.size(), pages.toString());
            for (JsonNode p : pages) {
                assertEquals("url", p.get("kind").asText());
                assertEquals("indexed", p.get("status").asText(), p.toString());
            }
            assertEquals(site.url("/returns") + "#sending-it-back",
                    ask(platform, key, "how many days do I have to return something").get(0).get("url").asText());

            // Read again: a page it gained is added, the others fetched again (not duplicated).
            site.html("/faq", "<html><head><title>FAQ</title></head><body><h2>Gift cards</h2><p>Gift cards never "
                    + "expire and can be used in every shop.</p></body></html>");
            site.page("/sitemap.xml", "text/xml", SITEMAP.formatted(site.url("/returns"), site.url("/faq")));
            assertEquals(202, platform.post("/api/v1/chatbot/knowledge/sources/" + sitemap.get("id").asText()
                    + "/refresh", key, "").status());
            Thread.sleep(300);
            awaitAllSettled(key);
            assertEquals(3, pagesOf(key, sitemap.get("id").asText()).size());

            // A list of addresses given at once: the same, without a sitemap to fetch.
            String other = platform.fullAccessKey(platform.createWorkspace("web-list"));
            JsonNode list = create(other, Json.object().put("kind", "sitemap").set("urls",
                    Json.mapper().createArrayNode().add(site.url("/returns")).add(site.url("/faq"))));
            assertEquals("Pages (2)", list.get("title").asText());
            awaitAllSettled(other);
            assertEquals(2, pagesOf(other, list.get("id").asText()).size());
            assertTrue(ask(platform, other, "do gift cards expire").get(0).get("text").asText()
                    .contains("never expire"));

            // Deleting the sitemap deletes its pages.
            assertEquals(200, platform.delete("/api/v1/chatbot/knowledge/sources/" + list.get("id").asText(), other)
                    .status());
            assertEquals(0, platform.get("/api/v1/chatbot/knowledge", other).data().get("sources").asInt());
        }
    }

    @Test
    void aFailedFetchIsReadableOnTheSource() throws Exception {
        try (var site = new TestSite()) {
            site.page("/notes.txt", "text/plain", "just text");
            site.bytes("/huge", "text/html", new byte[PageFetcher.MAX_BYTES + 10]);
            site.redirect("/moved", site.url("/here"));
            site.html("/here", "<html><head><title>Here</title></head><body><p>The page that moved is here now, "
                    + "with all of its text.</p></body></html>");
            site.redirect("/inside", "http://10.0.0.7/admin");
            site.page("/bad-sitemap.xml", "application/xml", "<html><body>not a sitemap</body></html>");
            String key = platform.fullAccessKey(platform.createWorkspace("web-failures"));

            assertFailed(key, "url", site.url("/missing"), "answered 404");
            assertFailed(key, "url", site.url("/notes.txt"), "content type is text/plain");
            assertFailed(key, "url", site.url("/huge"), "larger than 2 MB");
            assertFailed(key, "url", site.url("/inside"), "Redirected to http://10.0.0.7/admin, which is refused");
            assertFailed(key, "sitemap", site.url("/bad-sitemap.xml"), "not a sitemap");
            JsonNode moved = awaitSettled(key, create(key, Json.object().put("kind", "url").put("url",
                    site.url("/moved"))).get("id").asText());
            assertEquals("indexed", moved.get("status").asText(), "a redirect is followed, checked again: " + moved);
            assertEquals("Here", moved.get("title").asText());
        }
    }

    @Test
    void badInputIsRefusedNamingItsField() {
        String key = platform.fullAccessKey(platform.createWorkspace("web-refusals"));
        assertField(key, "{\"kind\":\"url\",\"url\":\"ftp://example.com/x\"}", "/url");
        assertField(key, "{\"kind\":\"url\"}", "/url");
        assertField(key, "{\"kind\":\"url\",\"url\":\"https://example.com/\",\"content\":\"x\"}", "/content");
        assertField(key, "{\"kind\":\"sitemap\"}", "/url");
        assertField(key, "{\"kind\":\"sitemap\",\"content\":\"<html><p>no</p></html>\"}", "/content");
        assertField(key, "{\"kind\":\"sitemap\",\"urls\":[\"https://example.com/a\",\"javascript:alert(1)\"]}",
                "/urls/1");
        assertField(key, "{\"kind\":\"sitemap\",\"urls\":[]}", "/urls");
        var many = Json.mapper().createArrayNode();
        StringBuilder locs = new StringBuilder();
        for (int i = 0; i <= PageFetcher.MAX_SITEMAP_URLS; i++) {
            many.add("https://example.com/p" + i);
            locs.append("<url><loc>https://example.com/p").append(i).append("</loc></url>");
        }
        assertField(key, Json.object().put("kind", "sitemap").set("urls", many).toString(), "/urls");
        assertField(key, Json.object().put("kind", "sitemap").put("content", "<urlset>" + locs + "</urlset>")
                .toString(), "/content");
        assertField(key, "{\"kind\":\"article\",\"title\":\"T\"}", "/content");

        String article = create(key, Json.object().put("kind", "article").put("title", "T").put("content", "x"))
                .get("id").asText();
        TestResponse notFetched = platform.post("/api/v1/chatbot/knowledge/sources/" + article + "/refresh", key, "");
        assertEquals(409, notFetched.status(), notFetched.toString());
        assertEquals("not_fetched", notFetched.json().get("code").asText(), notFetched.toString());
        assertEquals(404, platform.post("/api/v1/chatbot/knowledge/sources/" + UUID.randomUUID() + "/refresh", key, "")
                .status());
        TestResponse patchedList = platform.patch("/api/v1/chatbot/knowledge/sources/" + article, key,
                "{\"urls\":[\"https://example.com/a\"]}");
        assertEquals(422, patchedList.status(), patchedList.toString());
        assertEquals("/urls", patchedList.json().get("errors").get(0).get("pointer").asText());
    }

    private void assertFailed(String key, String kind, String url, String error) throws InterruptedException {
        JsonNode source = awaitSettled(key, create(key, Json.object().put("kind", kind).put("url", url))
                .get("id").asText());
        assertEquals("failed", source.get("status").asText(), source.toString());
        assertTrue(source.get("error").asText().contains(error), source.toString());
    }

    private void assertField(String key, String body, String pointer) {
        TestResponse r = platform.post("/api/v1/chatbot/knowledge/sources", key, body);
        assertEquals(422, r.status(), r.toString());
        assertEquals(pointer, r.json().get("errors").get(0).get("pointer").asText(), r.toString());
    }

    private JsonNode create(String key, JsonNode body) {
        TestResponse r = platform.post("/api/v1/chatbot/knowledge/sources", key, body.toString());
        if (r.status() != 201) {
            throw new AssertionError(r.toString());
        }
        return r.data();
    }

    private JsonNode awaitSettled(String key, String id) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        JsonNode source = null;
        while (System.nanoTime() < deadline) {
            source = platform.get("/api/v1/chatbot/knowledge/sources/" + id, key).data();
            String status = source.get("status").asText();
            if (status.equals("indexed") || status.equals("failed")) {
                return source;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("never settled: " + source);
    }

    private void awaitAllSettled(String key) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        JsonNode progress = null;
        while (System.nanoTime() < deadline) {
            progress = platform.get("/api/v1/chatbot/knowledge", key).data();
            if (progress.get("pending").asInt() == 0) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("never settled: " + progress);
    }

    private List<JsonNode> pagesOf(String key, String sitemapId) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode s : platform.get("/api/v1/chatbot/knowledge/sources?limit=100", key).json().get("data")) {
            if (sitemapId.equals(s.path("parent_id").asText())) {
                out.add(s);
            }
        }
        return out;
    }

    private List<String> passageIds(String sourceId) {
        return platform.jdbi().withHandle(h -> h.createQuery("SELECT id::text || encode(embedding, 'hex') FROM "
                        + "chatbot.knowledge_passages WHERE source_id = :id ORDER BY ordinal")
                .bind("id", UUID.fromString(sourceId)).mapTo(String.class).list());
    }
}
