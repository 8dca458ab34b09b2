package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The Chat knowledge pages over real HTTP: a file imported by a member, its progress, a refusal next to its field; a
 * web page imported from the loopback site (allowed here) and fetched again with the page's button.
 */
@PlatformTest(plugins = {"chatbot"}, config = {"lnp.chatbot.knowledge.index_interval=PT0.2S",
        "lnp.outbound.allowed_networks=127.0.0.0/8"})
class KnowledgePagesTest {

    private static final String BASE = "/app/chat/knowledge";

    @Test
    void aMemberImportsAFileAndSeesItIndexed(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("knowledge-pages");
        TestPerson member = platform.person(ws, "admin");

        var form = member.get(BASE + "/import");
        assertEquals(200, form.status(), form.body());

        var refused = member.post(BASE + "/new", "kind", "article", "content", "Text");
        assertEquals(422, refused.status(), refused.body());
        assertTrue(refused.body().contains("An article needs a title."), refused.body());

        var imported = member.post(BASE + "/import", "kind", "markdown", "language", "en",
                "content", KnowledgeTest.RETURNS);
        assertEquals(303, imported.status(), imported.body());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String overview = "";
        while (System.nanoTime() < deadline && !overview.contains("Up to date")) {
            overview = member.get(BASE).body();
            Thread.sleep(200);
        }
        assertTrue(overview.contains("Up to date"), overview);
        assertTrue(overview.contains("Returns and refunds"), overview);
        assertTrue(overview.contains("indexed"), overview);
    }

    @Test
    void aMemberImportsAWebPageAndFetchesItAgain(TestPlatform platform) throws Exception {
        try (var site = new TestSite()) {
            site.html("/shipping", KnowledgeTest.SHIPPING_HTML);
            UUID ws = platform.createWorkspace("knowledge-web-pages");
            TestPerson member = platform.person(ws, "admin");

            assertTrue(member.get(BASE).body().contains("Import web pages"));
            var form = member.get(BASE + "/web");
            assertEquals(200, form.status(), form.body());
            assertTrue(form.body().contains("Page addresses"), "the list of addresses: " + form.body());

            var refused = member.post(BASE + "/web", "kind", "url", "url", "ftp://x/y");
            assertEquals(400, refused.status() / 100 * 100, refused.body());
            assertTrue(refused.body().contains("Write a web address starting with http:// or https://"), refused.body());
            var noSitemap = member.post(BASE + "/web", "kind", "sitemap", "urls", "");
            assertEquals(422, noSitemap.status(), noSitemap.body());
            assertTrue(noSitemap.body().contains("List at least one page"), noSitemap.body());

            var imported = member.post(BASE + "/web", "kind", "url", "language", "en", "url",
                    site.url("/shipping"));
            assertEquals(303, imported.status(), imported.body());
            String sourcePage = imported.location().replaceFirst("^https?://[^/]+", "");
            String page = "";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            // "Indexed" with its time, not "Not yet": the page was fetched and its passages written.
            while (System.nanoTime() < deadline && !(page.contains("<dt>Fetched</dt>")
                    && page.contains("<dt>Indexed</dt>") && !page.contains("<dd>Not yet</dd>"))) {
                page = member.get(sourcePage).body();
                Thread.sleep(200);
            }
            assertTrue(page.contains("<dt>Fetched</dt>") && !page.contains("<dd>Not yet</dd>"), page);
            assertTrue(page.contains("Fetch again"), page);
            int served = site.requests.get();
            String action = sourcePage + "/refresh";
            var again = member.post(action);
            assertEquals(303, again.status(), again.body());
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline && site.requests.get() == served) {
                Thread.sleep(100);
            }
            assertEquals(served + 1, site.requests.get(), "fetched again");
        }
    }
}
