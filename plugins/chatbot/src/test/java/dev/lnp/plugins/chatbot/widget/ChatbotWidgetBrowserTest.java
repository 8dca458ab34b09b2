package dev.lnp.plugins.chatbot.widget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lnp.testkit.Browser;
import dev.lnp.testkit.TestPlatform;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The widget end to end in real headless Chromium against the real platform with the chatbot plugin (and the
 * issues plugin for the hand-off tickets): a shop page on another origin (another port) embeds the widget with
 * the SRI hash the management API publishes, under a strict CSP and hostile CSS; the visitor asks a question and
 * sees the knowledge responder's answer from an article arrive on the stream, asks for a person, and sees the
 * reply a team member posts as a comment on the hand-off ticket (REST API) arrive; the per-session rate limit
 * shows the polite 429 state; a page on an origin the widget does not allow gets no chat. Screenshots go to the
 * folder in -Dlnp.console.screenshots (docs/chatbot for the documentation).
 */
class ChatbotWidgetBrowserTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Low enough that the visitor meets the limit within the test: question, hand-off, thanks, then a 429. */
    private static final int SESSION_PER_MINUTE = 3;

    private static Browser chromium;
    private static WebDriver browser;
    private static TestPlatform platform;
    private static HostSite shop;
    private static HostSite elsewhere;
    private static WidgetDriver widget;
    private static String base;

    @BeforeAll
    static void start() throws IOException {
        chromium = Browser.start();
        browser = chromium.driver();
        widget = new WidgetDriver(browser);
        // the platform's base URL goes into the embed snippet it publishes: pick the port first
        int port;
        try (var probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        base = "http://127.0.0.1:" + port;
        platform = TestPlatform.start("chatbot-widget-browser", List.of("chatbot", "issues", "projects"), null, Map.of(
                "lnp.http.port", String.valueOf(port),
                "lnp.base.url", base,
                "lnp.chatbot.limits.session_per_minute", String.valueOf(SESSION_PER_MINUTE)));
        shop = new HostSite(base);
        elsewhere = new HostSite(base);
    }

    @AfterAll
    static void stop() {
        if (chromium != null) {
            chromium.close();
        }
        if (shop != null) {
            shop.close();
            elsewhere.close();
        }
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    void aVisitorGetsAnAnswerAsksForAPersonAndSeesTheirReply() throws Exception {
        UUID workspace = platform.createWorkspace("Acme Shop");
        String admin = platform.key(workspace, "chatbot.read", "chatbot.write", "issues.read", "issues.write");
        var created = platform.post("/api/v1/chatbot/widgets", admin, JSON.writeValueAsString(Map.of(
                "name", "Help",
                "allowed_origins", List.of(shop.origin()),
                "greeting", "Hi! How can we help?",
                "theme", Map.of("accent_color", "#1f6feb", "position", "right"))));
        assertEquals(201, created.status(), created.body());
        JsonNode widgetObject = created.data();
        String key = widgetObject.path("key").asText();
        assertTrue(key.startsWith("lnp_"), key);
        String integrity = HostSite.integrity();
        String snippet = widgetObject.path("embed_snippet").asText();
        assertTrue(snippet.contains("integrity=\"" + integrity + "\"") && snippet.contains("crossorigin=\"anonymous\""),
                "the published embed snippet carries the SRI hash of the script the platform serves: " + snippet);
        assertTrue(snippet.startsWith("<script src=\"" + base + "/api/cxo/widget.js"), snippet);
        var article = platform.post("/api/v1/chatbot/widgets/" + widgetObject.path("id").asText() + "/articles", admin,
                JSON.writeValueAsString(Map.of(
                        "title", "Returns and refunds",
                        "body", "You can return shoes and boots within 30 days of delivery for a full refund. "
                                + "Print the return label from your order page and drop the parcel at any post office.",
                        "url", "https://shop.example/help/returns")));
        assertEquals(201, article.status(), article.body());
        // the shop pastes the snippet exactly as published (a versioned, immutable URL with the SRI hash)
        shop.embedSnippet(snippet);
        elsewhere.embedSnippet(snippet);

        browser.manage().window().setSize(new Dimension(1280, 900));
        browser.get(shop.origin() + "/");
        widget.awaitState("ready", Duration.ofSeconds(20));
        assertTrue(widget.launcher().isDisplayed(), "the hostile host CSS does not hide the launcher");
        chromium.shoot("widget-01-launcher");

        widget.launcher().click();
        assertEquals("input", widget.focused());
        widget.input().sendKeys("How do I return shoes?" + Keys.ENTER);
        var answer = widget.awaitMessage("assistant", "30 days");
        new WebDriverWait(browser, Duration.ofSeconds(20)).until(d -> !widget.all(".msg.assistant .cites a").isEmpty());
        var cite = widget.find(".msg.assistant .cites a");
        assertEquals("Returns and refunds", cite.getText());
        assertEquals("https://shop.example/help/returns", cite.getDomAttribute("href"));
        assertTrue(answer.getText().contains("30 days"));
        // the answer came over the stream: the widget read the history once, when it started, and never polled
        // (an open stream is not in the page's resource timing until it ends, so the history is what is counted)
        assertEquals(1L, widget.js("return performance.getEntriesByType('resource')"
                + ".filter(e => e.name.includes('/api/cxo/history')).length;"));
        chromium.shoot("widget-02-answer");

        widget.find(".human").click();
        new WebDriverWait(browser, Duration.ofSeconds(20)).until(d -> !widget.find(".human").isEnabled());
        JsonNode ticket = awaitTicket(admin);
        var reply = platform.post("/api/v1/issues/" + ticket.path("id").asText() + "/comments", admin,
                JSON.writeValueAsString(Map.of("body", "Hello, this is Sam from the Acme team. I have sent you a return label.")));
        assertEquals(201, reply.status(), reply.body());
        var human = widget.awaitMessage("human_agent", "Sam from the Acme team");
        assertTrue(human.getText().contains("Team member"), "a person's message is labelled as such");
        assertTrue(widget.inView(human), "the conversation follows the newest message");
        chromium.shoot("widget-03-human-reply");

        // the visitor's third message is accepted, and within one minute the one over the session's limit is held back.
        // The limit counts per clock minute, so when the messages so far straddle a minute's end the visitor simply
        // goes on: at most limit + 1 further messages fall in one minute, and the last of them must be refused.
        widget.input().sendKeys("Thank you!" + Keys.ENTER);
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> widget.all(".msg.visitor").size() >= 3);
        String session = (String) widget.js("for (var i = 0; i < sessionStorage.length; i++) {"
                + " var k = sessionStorage.key(i); if (k.indexOf('lnp-chat-') === 0)"
                + " return JSON.parse(sessionStorage.getItem(k)).session_id; } return null;");
        assertNotNull(session, "the widget keeps its session id in sessionStorage");
        String refused = null;
        for (int attempt = 1; attempt <= SESSION_PER_MINUTE + 1 && refused == null; attempt++) {
            String text = "One more question (" + attempt + "): do you ship to Norway?";
            widget.input().sendKeys(text + Keys.ENTER);
            // held: the widget says to wait; sent: the platform stored it (the widget shows a message before it is sent)
            String outcome = new WebDriverWait(browser, Duration.ofSeconds(20)).until(d -> {
                if (widget.status().isDisplayed() && widget.status().getText().contains("Please wait")) {
                    return "held";
                }
                return visitorSaid(shop.origin(), key, session, text) ? "sent" : null;
            });
            refused = outcome.equals("held") ? text : null;
        }
        assertTrue(refused != null, "a message over the session's limit in one minute is held back");
        assertFalse(widget.find(".send").isEnabled(), "send waits for Retry-After");
        assertEquals(refused, widget.input().getDomProperty("value"), "the held-back message stays in the box");
        chromium.shoot("widget-04-rate-limited");

        browser.manage().window().setSize(new Dimension(320, 640));
        assertTrue(widget.panelFillsTheWidth(), "at 320 px the dialog takes the page's whole width, no more");
        assertTrue((Long) widget.js("return document.documentElement.scrollWidth;")
                <= (Long) widget.js("return document.documentElement.clientWidth;"), "no sideways scrolling");
        widget.shootAsIs("widget-05-narrow-320");
        browser.manage().window().setSize(new Dimension(1280, 900));

        browser.get(elsewhere.origin() + "/");
        widget.awaitState("unavailable", Duration.ofSeconds(20));
        assertFalse(widget.present(), "a page on an origin the widget does not allow gets no chat");
    }

    /** Whether the conversation's history holds a visitor message with exactly {@code text}. */
    private static boolean visitorSaid(String origin, String key, String session, String text) {
        var history = platform.send("GET", "/api/cxo/history?session_id=" + session + "&api_key=" + key, null, null,
                Map.of("Origin", origin));
        assertEquals(200, history.status(), history.body());
        for (JsonNode message : history.json().path("messages")) {
            if (message.path("role").asText().equals("visitor") && message.path("text").asText().equals(text)) {
                return true;
            }
        }
        return false;
    }

    /** The hand-off ticket the visitor's request opened (the only ticket of the workspace). */
    private static JsonNode awaitTicket(String key) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            var tickets = platform.get("/api/v1/issues?kind=ticket", key);
            assertEquals(200, tickets.status(), tickets.body());
            if (tickets.data().size() > 0) {
                return tickets.data().get(0);
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no hand-off ticket was opened");
    }
}
