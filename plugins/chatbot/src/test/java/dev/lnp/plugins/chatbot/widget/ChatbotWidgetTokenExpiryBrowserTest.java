package dev.lnp.plugins.chatbot.widget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lnp.testkit.Browser;
import dev.lnp.testkit.TestPlatform;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The widget against the real platform with visitor tokens that live 3 seconds: the stream ends with
 * {@code token.expired} again and again, and the widget shakes hands again and resumes the same conversation
 * each time, so a visitor who comes back after the token expired still gets answers and a person's reply.
 */
class ChatbotWidgetTokenExpiryBrowserTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static Browser chromium;
    private static WebDriver browser;
    private static TestPlatform platform;
    private static HostSite shop;
    private static WidgetDriver widget;
    private static String base;

    @BeforeAll
    static void start() throws IOException {
        chromium = Browser.start();
        browser = chromium.driver();
        widget = new WidgetDriver(browser);
        platform = TestPlatform.start("chatbot-widget-expiry", List.of("chatbot", "issues", "projects"), null,
                Map.of("lnp.chatbot.token_lifetime", "PT3S"));
        base = "http://127.0.0.1:" + platform.port();
        shop = new HostSite(base);
    }

    @AfterAll
    static void stop() {
        if (chromium != null) {
            chromium.close();
        }
        if (shop != null) {
            shop.close();
        }
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    void expiredTokensAreRenewedAndTheConversationGoesOn() throws Exception {
        UUID workspace = platform.createWorkspace("Acme Shop");
        String admin = platform.key(workspace, "chatbot.read", "chatbot.write", "issues.read", "issues.write");
        var created = platform.post("/api/v1/chatbot/widgets", admin, JSON.writeValueAsString(Map.of(
                "name", "Help", "allowed_origins", List.of(shop.origin()))));
        assertEquals(201, created.status(), created.body());
        String id = created.data().path("id").asText();
        assertEquals(201, platform.post("/api/v1/chatbot/widgets/" + id + "/articles", admin, JSON.writeValueAsString(Map.of(
                "title", "Delivery", "body", "We deliver to Norway and Sweden within four working days.",
                "url", "https://shop.example/help/delivery"))).status());
        shop.embed(base, created.data().path("key").asText(), HostSite.integrity());

        browser.get(shop.origin() + "/");
        widget.awaitState("ready", Duration.ofSeconds(20));
        widget.launcher().click();
        widget.input().sendKeys("Do you deliver to Norway?" + Keys.ENTER);
        widget.awaitMessage("assistant", "four working days");

        // several token lifetimes pass while the visitor reads
        Thread.sleep(8_000);
        long handshakes = (Long) widget.js("return performance.getEntriesByType('resource')"
                + ".filter(e => e.name.includes('/api/cxo/config')).length;");
        assertTrue(handshakes >= 3, "the widget shook hands again after each token.expired: " + handshakes);

        widget.find(".human").click();
        new WebDriverWait(browser, Duration.ofSeconds(20)).until(d -> !widget.find(".human").isEnabled());
        new WebDriverWait(browser, Duration.ofSeconds(20))
                .until(d -> platform.get("/api/v1/issues?kind=ticket", admin).data().size() > 0);
        String ticket = platform.get("/api/v1/issues?kind=ticket", admin).data().get(0).path("id").asText();
        Thread.sleep(4_000); // another expiry between the hand-off and the reply
        var reply = platform.post("/api/v1/issues/" + ticket + "/comments", admin,
                JSON.writeValueAsString(Map.of("body", "Hi, Lea here: yes, Norway is fine.")));
        assertEquals(201, reply.status(), reply.body());
        widget.awaitMessage("human_agent", "Lea here");

        assertEquals(2, widget.all(".msg.visitor").size(), "one conversation, each message once");
        assertEquals(1, widget.all(".msg.human_agent").size());
        assertFalse(widget.status().isDisplayed(), "no error was shown: " + widget.status().getText());
    }
}
