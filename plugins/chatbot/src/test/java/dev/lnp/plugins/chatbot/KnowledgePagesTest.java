package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.web.console.ConsoleSessions;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        String email = "member-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        UUID user = platform.workspaces().addUser(ws, email, "admin");
        String cookie = "lnp_console=" + new ConsoleSessions(platform.jdbi(), Duration.ofHours(1))
                .create(email, user, "test", "127.0.0.1").token();
        String base = "http://localhost:" + platform.port();
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

        var form = get(http, base + BASE + "/import", cookie);
        assertEquals(200, form.statusCode(), form.body());
        Matcher csrf = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"").matcher(form.body());
        assertTrue(csrf.find(), form.body());

        var refused = post(http, base + BASE + "/new", cookie, csrf.group(1), "kind=article&content=" + enc("Text"));
        assertEquals(422, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("An article needs a title."), refused.body());

        var imported = post(http, base + BASE + "/import", cookie, csrf.group(1), "kind=markdown&language=en&content="
                + enc(KnowledgeTest.RETURNS));
        assertEquals(303, imported.statusCode(), imported.body());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String overview = "";
        while (System.nanoTime() < deadline && !overview.contains("Up to date")) {
            overview = get(http, base + BASE, cookie).body();
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
            String email = "member-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
            UUID user = platform.workspaces().addUser(ws, email, "admin");
            String cookie = "lnp_console=" + new ConsoleSessions(platform.jdbi(), Duration.ofHours(1))
                    .create(email, user, "test", "127.0.0.1").token();
            String base = "http://localhost:" + platform.port();
            HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

            assertTrue(get(http, base + BASE, cookie).body().contains("Import web pages"));
            var form = get(http, base + BASE + "/web", cookie);
            assertEquals(200, form.statusCode(), form.body());
            assertTrue(form.body().contains("Page addresses"), "the list of addresses: " + form.body());
            Matcher csrf = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"").matcher(form.body());
            assertTrue(csrf.find(), form.body());

            var refused = post(http, base + BASE + "/web", cookie, csrf.group(1), "kind=url&url=" + enc("ftp://x/y"));
            assertEquals(400, refused.statusCode() / 100 * 100, refused.body());
            assertTrue(refused.body().contains("Write a web address starting with http:// or https://"), refused.body());
            var noSitemap = post(http, base + BASE + "/web", cookie, csrf.group(1), "kind=sitemap&urls=");
            assertEquals(422, noSitemap.statusCode(), noSitemap.body());
            assertTrue(noSitemap.body().contains("List at least one page"), noSitemap.body());

            var imported = post(http, base + BASE + "/web", cookie, csrf.group(1), "kind=url&language=en&url="
                    + enc(site.url("/shipping")));
            assertEquals(303, imported.statusCode(), imported.body());
            String location = imported.headers().firstValue("Location").orElseThrow();
            String sourcePage = location.startsWith("http") ? location : base + location;
            String page = "";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline && !page.contains("indexed")) {
                page = get(http, sourcePage, cookie).body();
                Thread.sleep(200);
            }
            assertTrue(page.contains("indexed") && page.contains("Fetch again"), page);
            assertTrue(page.contains("Fetched"), page);
            int served = site.requests.get();
            String action = sourcePage.substring(sourcePage.indexOf(BASE)) + "/refresh";
            Matcher pageCsrf = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"").matcher(page);
            assertTrue(pageCsrf.find(), page);
            var again = post(http, base + action, cookie, pageCsrf.group(1), "");
            assertEquals(303, again.statusCode(), again.body());
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline && site.requests.get() == served) {
                Thread.sleep(100);
            }
            assertEquals(served + 1, site.requests.get(), "fetched again");
        }
    }

    private static HttpResponse<String> get(HttpClient http, String url, String cookie) throws Exception {
        return http.send(HttpRequest.newBuilder(java.net.URI.create(url)).header("Cookie", cookie).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(HttpClient http, String url, String cookie, String csrf, String form)
            throws Exception {
        String origin = url.substring(0, url.indexOf('/', 8));
        return http.send(HttpRequest.newBuilder(java.net.URI.create(url)).header("Cookie", cookie)
                .header("Origin", origin).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("csrf=" + enc(csrf) + "&" + form)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
