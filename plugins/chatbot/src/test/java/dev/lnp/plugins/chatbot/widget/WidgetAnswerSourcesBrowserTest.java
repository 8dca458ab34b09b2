package dev.lnp.plugins.chatbot.widget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lnp.plugins.chatbot.FakeCompletions;
import dev.lnp.testkit.Browser;
import dev.lnp.testkit.TestPlatform;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A grounded answer in the widget, in real headless Chromium: the workspace has a knowledge article, the widget's
 * responder is the OpenAI-compatible one against a local fake model server that streams its answer citing
 * source [1]; the visitor sees the text grow (deltas), then the source as a link to the article's section, rates
 * the answer and the conversation, and after a reload the history shows the same sources and ratings. At 320 px
 * nothing overflows. Then an admin reads the rating and an unanswered question on the chat insights page
 * (axe-core). Screenshots: widget-06-answer-sources, widget-07-sources-320, widget-08-rated, chat-insights.
 */
class WidgetAnswerSourcesBrowserTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> PIECES = List.of("You can send ", "any item back ", "within 30 days ",
            "of delivery, ", "with the prepaid ", "label from ", "your account ", "page [1].");
    private static final String ANSWER = String.join("", PIECES);

    private static Browser chromium;
    private static WebDriver browser;
    private static TestPlatform platform;
    private static HostSite shop;
    private static WidgetDriver widget;
    private static FakeCompletions model;

    @BeforeAll
    static void start() throws IOException {
        chromium = Browser.start();
        browser = chromium.driver();
        widget = new WidgetDriver(browser);
        model = new FakeCompletions(PIECES, false);
        int port;
        try (var probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        String base = "http://127.0.0.1:" + port;
        platform = TestPlatform.start("chatbot-widget-sources", List.of("chatbot"), null, Map.of(
                "lnp.http.port", String.valueOf(port),
                "lnp.base.url", base,
                "lnp.outbound.allowed_networks", "127.0.0.0/8",
                "lnp.chatbot.knowledge.index_interval", "PT0.2S"));
        shop = new HostSite(base);
    }

    @AfterAll
    static void stop() throws IOException {
        if (chromium != null) {
            chromium.close();
        }
        if (shop != null) {
            shop.close();
        }
        if (platform != null) {
            platform.close();
        }
        if (model != null) {
            model.close();
        }
    }

    @Test
    void aStreamedAnswerShowsItsSourcesAndCanBeRated() throws Exception {
        UUID workspace = platform.createWorkspace("Acme Shop");
        String admin = platform.key(workspace, "chatbot.read", "chatbot.write");
        var source = platform.post("/api/v1/chatbot/knowledge/sources", admin, JSON.writeValueAsString(Map.of(
                "kind", "markdown", "url", "https://shop.example/help/returns", "content", """
                        # Returns and refunds

                        Everything about sending an order back.

                        ## Returning an item

                        You can send any item back within 30 days of delivery. Print the prepaid label from your
                        account page, pack the item in its original box and drop it at any post office.
                        """)));
        assertEquals(201, source.status(), source.body());
        awaitIndexed(admin);
        var created = platform.post("/api/v1/chatbot/widgets", admin, JSON.writeValueAsString(Map.of(
                "name", "Help",
                "allowed_origins", List.of(shop.origin()),
                "greeting", "Hi! How can we help?",
                "responder", "openai",
                "responder_settings", Map.of("base_url", model.baseUrl(), "model", "tiny-1"))));
        assertEquals(201, created.status(), created.body());
        shop.embedSnippet(created.data().path("embed_snippet").asText());

        browser.manage().window().setSize(new Dimension(1280, 900));
        browser.get(shop.origin() + "/");
        widget.awaitState("ready", Duration.ofSeconds(20));
        widget.launcher().click();
        // Every text the answer's bubble shows while it arrives, to see it grow piece by piece.
        widget.js("window.__seen = []; new MutationObserver(() => {"
                + " document.querySelector('lnp-chat-widget').shadowRoot.querySelectorAll('.msg.assistant .text')"
                + ".forEach(e => window.__seen.push(e.textContent)); })"
                + ".observe(document.querySelector('lnp-chat-widget').shadowRoot, {subtree: true, childList: true, characterData: true});");
        widget.input().sendKeys("Can I send my order back?" + Keys.ENTER);
        WebElement answer = widget.awaitMessage("assistant", "page [1].");
        new WebDriverWait(browser, Duration.ofSeconds(20)).until(d -> !widget.all(".msg.assistant .cites a").isEmpty());
        assertTrue(answer.getText().contains(ANSWER), answer.getText());
        @SuppressWarnings("unchecked")
        List<String> seen = (List<String>) widget.js("return window.__seen;");
        assertTrue(seen.stream().anyMatch(t -> t.startsWith("You can send") && !t.equals(ANSWER)
                        && ANSWER.startsWith(t)), "the answer grew as the deltas arrived: " + seen);
        checkSource();
        assertEquals("false", widget.find(".rating [aria-label='Helpful answer']").getDomAttribute("aria-pressed"));
        chromium.shoot("widget-06-answer-sources");

        // At 320 px: the sources wrap inside the bubble, nothing scrolls sideways.
        browser.manage().window().setSize(new Dimension(320, 640));
        assertTrue(widget.panelFillsTheWidth(), "at 320 px the dialog takes the page's whole width, no more");
        assertEquals(Boolean.TRUE, widget.js("var r = document.querySelector('lnp-chat-widget').shadowRoot;"
                + "var bubble = r.querySelector('.msg.assistant .cites').closest('.msg').getBoundingClientRect();"
                + "return [...r.querySelectorAll('.cites a, .rating button')].every(e => {"
                + " var b = e.getBoundingClientRect(); return b.right <= bubble.right + 1 && b.left >= bubble.left - 1; })"
                + " && document.documentElement.scrollWidth <= document.documentElement.clientWidth;"));
        widget.shootAsIs("widget-07-sources-320");
        browser.manage().window().setSize(new Dimension(1280, 900));

        // Thumbs down, then changed to up, with the keyboard.
        widget.find(".rating [aria-label='Not helpful']").click();
        widget.awaitStatus("marked as not helpful");
        assertEquals("true", widget.find(".rating [aria-label='Not helpful']").getDomAttribute("aria-pressed"));
        widget.find(".rating [aria-label='Helpful answer']").sendKeys(Keys.SPACE);
        widget.awaitStatus("marked as helpful");
        assertEquals("true", widget.find(".rating [aria-label='Helpful answer']").getDomAttribute("aria-pressed"));
        assertEquals("false", widget.find(".rating [aria-label='Not helpful']").getDomAttribute("aria-pressed"));

        // The conversation: 4 of 5 with a comment.
        widget.find(".rate").click();
        assertEquals("true", widget.find(".rate").getDomAttribute("aria-expanded"));
        widget.find(".csat button[type=submit]").click();
        widget.awaitStatus("Choose a score from 1 to 5 first.");
        widget.find(".scores [aria-label='4 of 5, satisfied']").click();
        widget.find("#csat-comment").sendKeys("Clear answer");
        chromium.shoot("widget-08-rating-the-chat");
        widget.find(".csat button[type=submit]").click();
        widget.awaitStatus("Thank you for rating this chat (4 of 5)");

        // An unanswered question: the model server is asked all the same, but nothing was retrieved.
        widget.input().sendKeys("Which vaccines does my cat need?" + Keys.ENTER);
        new WebDriverWait(browser, Duration.ofSeconds(20)).until(d -> widget.all(".msg.assistant").size() >= 3);

        // After a reload the history brings the same sources and the visitor's ratings.
        browser.navigate().refresh();
        widget.awaitState("ready", Duration.ofSeconds(20));
        widget.launcher().click();
        widget.awaitMessage("assistant", "page [1].");
        new WebDriverWait(browser, Duration.ofSeconds(20)).until(d -> !widget.all(".msg.assistant .cites a").isEmpty());
        checkSource();
        assertEquals("true", widget.find(".rating [aria-label='Helpful answer']").getDomAttribute("aria-pressed"));
        widget.find(".rate").click();
        assertEquals("true", widget.find(".scores [aria-label='4 of 5, satisfied']").getDomAttribute("aria-pressed"));
        assertEquals("Clear answer", widget.find("#csat-comment").getDomProperty("value"));

        // The admin's side: the CSAT and the unanswered question on the insights page, accessible.
        platform.person(workspace, "admin").signIn(chromium);
        browser.get("http://localhost:" + platform.port() + "/app/chat/insights");
        chromium.waitFor(By.xpath("//h1[text()='Chat insights']"));
        String page = browser.getPageSource();
        assertTrue(page.contains("4.00 of 5, from 1 rated conversation"), page);
        assertTrue(page.contains("Which vaccines does my cat need?"), page);
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), "the chat insights page");
        chromium.shoot("chat-insights");
        browser.findElement(By.linkText("Add an article")).click();
        chromium.waitFor(By.xpath("//h1[text()='New article']"));
        assertEquals("Which vaccines does my cat need?", browser.findElement(By.name("title")).getDomProperty("value"));
    }

    /** The answer's source: the article's section, opened safely in a new tab. */
    private static void checkSource() {
        var cite = widget.find(".msg.assistant .cites a");
        assertEquals("[1] Returns and refunds › Returning an item", cite.getText());
        assertEquals("https://shop.example/help/returns#returning-an-item", cite.getDomAttribute("href"));
        assertEquals("noopener noreferrer", cite.getDomAttribute("rel"));
        assertEquals("_blank", cite.getDomAttribute("target"));
    }

    private static void awaitIndexed(String key) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            JsonNode p = platform.get("/api/v1/chatbot/knowledge", key).data();
            if (p != null && p.path("pending").asInt(1) == 0 && p.path("sources").asInt() > 0) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the knowledge was never indexed");
    }
}
