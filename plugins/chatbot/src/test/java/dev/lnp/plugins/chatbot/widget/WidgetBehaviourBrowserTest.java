package dev.lnp.plugins.chatbot.widget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.Browser;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chromium.ChromiumNetworkConditions;
import org.openqa.selenium.chromium.HasNetworkConditions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The widget's own behaviour in real headless Chromium, against {@link FakeChatServer} (a fake of the wire
 * contract) because these are states the real platform cannot be made to produce on cue: a 429 with Retry-After,
 * a dropped stream, an expired token, the network going away, streaming switched off. The round trip against the
 * real platform is {@code ChatbotWidgetBrowserTest}.
 */
class WidgetBehaviourBrowserTest {

    private static final String KEY = "lnp_widget_fake_key";
    private static Browser chromium;
    private static WebDriver browser;
    private static FakeChatServer fake;
    private static HostSite host;
    private static HostSite foreign;
    private static WidgetDriver widget;

    @BeforeAll
    static void start() throws IOException {
        chromium = Browser.start();
        browser = chromium.driver();
        widget = new WidgetDriver(browser);
        // the allowed origin is only known once the host site listens
        var allowed = new java.util.concurrent.CopyOnWriteArraySet<String>();
        fake = new FakeChatServer(allowed);
        host = new HostSite(fake.base()).embed(fake.base(), KEY, HostSite.integrity());
        foreign = new HostSite(fake.base()).embed(fake.base(), KEY, HostSite.integrity());
        allowed.add(host.origin());
    }

    @AfterAll
    static void stop() {
        if (chromium != null) {
            chromium.close();
        }
        if (host != null) {
            host.close();
            foreign.close();
            fake.close();
        }
    }

    @BeforeEach
    void freshVisitor() {
        fake.streaming = true;
        fake.rateLimitNext = 0;
        fake.down = false;
        fake.requiredIdentity = null;
        // A new tab has an empty sessionStorage. Clearing it under a page whose widget is still starting was racy:
        // the widget could store the previous test's session again after the clear, and the reload resumed it.
        String previous = browser.getWindowHandle();
        browser.switchTo().newWindow(WindowType.TAB);
        String fresh = browser.getWindowHandle();
        browser.switchTo().window(previous).close();
        browser.switchTo().window(fresh);
        browser.manage().window().setSize(new Dimension(1280, 900));
        browser.get(host.origin() + "/");
        widget.awaitState("ready", Duration.ofSeconds(15));
    }

    @Test
    void hostileHostCssCannotHideOrRestyleTheWidgetAndTheDialogIsKeyboardUsable() {
        var launcher = widget.launcher();
        assertTrue(launcher.isDisplayed(), "the host page's CSS (button { display: none }, body > *:not(main) { display: none }) does not hide the launcher");
        assertTrue(launcher.getSize().getHeight() >= 44, "launcher is a 44 px target: " + launcher.getSize());
        assertEquals("rgba(255, 255, 255, 1)", launcher.getCssValue("color"));
        assertEquals("false", launcher.getDomAttribute("aria-expanded"));
        assertEquals("Help: open chat", launcher.getDomAttribute("aria-label"));

        launcher.click();
        assertTrue(widget.panel().isDisplayed());
        assertEquals("dialog", widget.panel().getDomAttribute("role"));
        assertEquals("true", widget.launcher().getDomAttribute("aria-expanded"));
        assertEquals("input", widget.focused(), "focus moves into the dialog, to the message box");
        var log = widget.find("[role=log]");
        assertEquals("polite", log.getDomAttribute("aria-live"));
        assertTrue(log.isDisplayed());
        assertEquals("15px", widget.input().getCssValue("font-size"), "the host's 40px !important does not apply");
        assertTrue(widget.find("label[for=input]").getText().contains("Your message"));
        assertTrue(widget.find(".msg.assistant").getText().contains("Hi! How can we help?"), "the greeting");

        // Tab cycles inside the dialog, both ways
        var actions = new Actions(browser);
        for (int i = 0; i < 8; i++) {
            actions.sendKeys(Keys.TAB).perform();
            assertFalse(widget.focused().equals("outside"), "Tab stays in the dialog");
        }
        widget.input().click();
        for (int i = 0; i < 8; i++) {
            actions.keyDown(Keys.SHIFT).sendKeys(Keys.TAB).keyUp(Keys.SHIFT).perform();
            assertFalse(widget.focused().equals("outside"), "Shift+Tab stays in the dialog");
        }
        // Shift+Enter is a new line, Enter sends
        widget.input().click();
        widget.input().sendKeys("first line");
        actions.keyDown(Keys.SHIFT).sendKeys(Keys.ENTER).keyUp(Keys.SHIFT).perform();
        widget.input().sendKeys("second line");
        assertEquals("first line\nsecond line", widget.input().getDomProperty("value"));
        widget.input().sendKeys(Keys.ENTER);
        widget.awaitMessage("assistant", "within 30 days");
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> !widget.all(".msg.assistant .cites a").isEmpty());
        assertEquals("first line\nsecond line", fake.requests("/api/cxo/chatbot").getLast().body().path("message").asText());
        var link = widget.find(".msg.assistant .cites a");
        assertEquals("https://shop.example/help/returns", link.getDomAttribute("href"));
        assertEquals("noopener noreferrer", link.getDomAttribute("rel"));
        assertEquals(1, widget.all(".msg.assistant .cites a").size(), "javascript: and data: sources are no links");
        assertFalse(widget.find(".msg.assistant").getText().contains("Script source"), "nor shown at all");

        // Escape closes and gives focus back to the launcher
        actions.sendKeys(Keys.ESCAPE).perform();
        assertFalse(widget.panel().isDisplayed());
        assertEquals("launcher", widget.focused());
        assertEquals("false", widget.launcher().getDomAttribute("aria-expanded"));

        // the visitor is never tracked: no cookies, nothing in localStorage, no credentials sent
        assertEquals("", widget.js("return document.cookie;"));
        assertEquals(0L, widget.js("return localStorage.length;"));
        assertTrue(fake.requests.stream().allMatch(r -> r.cookie() == null));
        String stored = (String) widget.js("return JSON.stringify(sessionStorage);");
        assertFalse(stored.contains(KEY), "the key is not stored: " + stored);
        assertFalse(stored.contains("token"), "the token is not stored: " + stored);
    }

    @Test
    void aRateLimitIsPoliteDisablesSendingAndHonoursRetryAfter() throws IOException {
        widget.launcher().click();
        fake.rateLimitNext = 1;
        fake.retryAfterSeconds = 4;
        widget.input().sendKeys("Where is my order?" + Keys.ENTER);
        widget.awaitStatus("Please wait");
        assertTrue(widget.status().getText().matches(".*wait [1-4][ \u00a0]seconds? before.*"), widget.status().getText());
        assertEquals("status", widget.status().getDomAttribute("role"));
        assertFalse(widget.find(".send").isEnabled(), "send is disabled while rate limited");
        assertEquals("Where is my order?", widget.input().getDomProperty("value"), "the message is kept for later");
        assertTrue(widget.all(".msg.visitor").isEmpty(), "the refused message is not shown as sent");
        new WebDriverWait(browser, Duration.ofSeconds(8)).until(d -> widget.find(".send").isEnabled());
        assertFalse(widget.status().isDisplayed(), "the notice goes away when sending is possible again");
        widget.input().sendKeys(Keys.ENTER);
        widget.awaitMessage("assistant", "Where is my order?");
    }

    @Test
    void offlineMessagesAreQueuedAndSentWhenTheNetworkComesBack() throws IOException {
        widget.launcher().click();
        var network = (HasNetworkConditions) browser;
        var offline = new ChromiumNetworkConditions();
        offline.setOffline(true);
        network.setNetworkConditions(offline);
        try {
            widget.input().sendKeys("Are you open on Sunday?" + Keys.ENTER);
            widget.awaitStatus("offline");
            assertTrue(widget.find(".msg.visitor").getDomAttribute("class").contains("queued"));
            chromium.shoot("widget-offline");
        } finally {
            network.deleteNetworkConditions();
        }
        widget.awaitMessage("assistant", "Are you open on Sunday?");
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> !widget.status().isDisplayed());
        assertEquals(1, fake.requests("/api/cxo/chatbot").stream()
                .filter(r -> r.body().path("message").asText().equals("Are you open on Sunday?")).count());
    }

    @Test
    void theStreamReconnectsWithLastEventIdAndAnExpiredTokenMeansANewHandshake() {
        widget.launcher().click();
        widget.input().sendKeys("Do you ship to Norway?" + Keys.ENTER);
        widget.awaitMessage("assistant", "Norway");
        String session = (String) widget.js("return JSON.parse(Object.values(sessionStorage)[0]).session_id;");
        int streams = fake.requests("/api/cxo/stream").size();

        fake.dropStreams();
        new WebDriverWait(browser, Duration.ofSeconds(15)).until(d -> fake.requests("/api/cxo/stream").size() > streams);
        var reconnect = fake.requests("/api/cxo/stream").getLast();
        assertTrue(Long.parseLong(reconnect.query().get("last_event_id")) > 0, "resumes after the last event it saw");
        fake.humanReply(session, "Hello, Sam from the team here.");
        widget.awaitMessage("human_agent", "Sam from the team");

        int handshakes = fake.handshakes.get();
        var tokens = fake.requests("/api/cxo/stream").stream().map(r -> r.query().get("token"))
                .collect(java.util.stream.Collectors.toSet());
        fake.expireTokens(session, tokens);
        new WebDriverWait(browser, Duration.ofSeconds(15)).until(d -> fake.handshakes.get() > handshakes);
        var again = fake.requests("/api/cxo/config").getLast();
        assertEquals(session, again.body().path("session_id").asText(), "the same conversation goes on");
        widget.input().sendKeys("And to Iceland?" + Keys.ENTER);
        widget.awaitMessage("assistant", "Iceland");
        var message = fake.requests("/api/cxo/chatbot").getLast();
        assertFalse(tokens.contains(message.body().path("token").asText()), "the new token is used");
    }

    @Test
    void aReloadResumesTheConversationFromSessionStorage() {
        widget.launcher().click();
        widget.input().sendKeys("Can I pay by invoice?" + Keys.ENTER);
        widget.awaitMessage("assistant", "invoice");
        String session = fake.requests("/api/cxo/chatbot").getLast().body().path("session_id").asText();
        browser.navigate().refresh();
        widget.awaitState("ready", Duration.ofSeconds(15));
        assertEquals(session, fake.requests("/api/cxo/config").getLast().body().path("session_id").asText());
        widget.launcher().click();
        widget.awaitMessage("assistant", "invoice");
        assertEquals(1, widget.all(".msg.visitor").size(), "history and stream replay do not duplicate messages");
        assertEquals(1, widget.all(".msg.assistant .cites").size());
    }

    @Test
    void aChatForSignedInVisitorsSaysSoAndSendsTheSitesIdentityToken() {
        fake.requiredIdentity = "signed-token-of-ada";
        widget.js("sessionStorage.clear();");
        browser.navigate().refresh();
        widget.awaitState("signin", Duration.ofSeconds(15));
        widget.launcher().click();
        widget.awaitStatus("Please sign in to chat with us.");
        assertFalse(widget.input().isEnabled(), "nothing can be sent without a sign-in");
        assertFalse(widget.find(".send").isEnabled());

        // A signed-in page: the token on the script tag goes into the handshake (a second widget, so it starts).
        widget.js("var s = document.createElement('script'); s.src = arguments[0]; s.dataset.key = 'lnp_widget_other';"
                + "s.setAttribute('data-identity-token', arguments[1]); s.id = 'signed'; document.body.append(s);",
                fake.base() + "/api/cxo/widget.js", "signed-token-of-ada");
        new WebDriverWait(browser, Duration.ofSeconds(15)).until(d -> "ready".equals(widget.js(
                "return document.getElementById('signed').getAttribute('data-state');")));
        var shaken = fake.requests("/api/cxo/config");
        assertEquals("signed-token-of-ada", shaken.get(shaken.size() - 1).body().path("identity_token").asText());

        // A token the platform refuses reads differently.
        widget.js("var s = document.createElement('script'); s.src = arguments[0]; s.dataset.key = 'lnp_widget_third';"
                + "s.setAttribute('data-identity-token', 'forged'); s.id = 'forged'; document.body.append(s);",
                fake.base() + "/api/cxo/widget.js");
        new WebDriverWait(browser, Duration.ofSeconds(15)).until(d -> "signin".equals(widget.js(
                "return document.getElementById('forged').getAttribute('data-state');")));
        assertTrue((Boolean) widget.js("return [...document.querySelectorAll('lnp-chat-widget')].some(w => "
                + "w.shadowRoot.querySelector('.status').textContent.includes('Your sign-in could not be confirmed'))"));
    }

    @Test
    void withStreamingOffTheWidgetPollsTheHistory() {
        fake.streaming = false;
        widget.js("sessionStorage.clear();");
        browser.navigate().refresh();
        widget.awaitState("ready", Duration.ofSeconds(15));
        widget.launcher().click();
        widget.input().sendKeys("Is there a size guide?" + Keys.ENTER);
        widget.awaitMessage("assistant", "size guide");
        assertEquals(1, widget.all(".msg.visitor").size());
        assertTrue(fake.requests("/api/cxo/history").size() >= 2);
    }

    @Test
    void withStreamingOffAHandOffHoldsUntilClosedAndAReplyArrivesByPolling() {
        fake.streaming = false;
        widget.js("sessionStorage.clear();");
        browser.navigate().refresh();
        widget.awaitState("ready", Duration.ofSeconds(15));
        widget.launcher().click();
        widget.input().sendKeys("My parcel is lost");
        widget.find(".human").click();
        new WebDriverWait(browser, Duration.ofSeconds(15)).until(d -> !widget.all(".msg.system").isEmpty());
        assertFalse(widget.find(".human").isEnabled());

        // A reload: the handshake says a person has it.
        browser.navigate().refresh();
        widget.awaitState("ready", Duration.ofSeconds(15));
        widget.launcher().click();
        new WebDriverWait(browser, Duration.ofSeconds(15)).until(d -> !widget.find(".human").isEnabled());
        assertEquals("A person has been asked", widget.find(".human").getText());

        // The next message is the person's: nobody is shown "writing an answer" for it.
        widget.input().sendKeys("Are you there?" + Keys.ENTER);
        new WebDriverWait(browser, Duration.ofSeconds(15)).until(d -> widget.all(".msg.visitor").size() >= 2);
        assertFalse(widget.find(".typing").isDisplayed(), "no answer is awaited from the assistant");
        String session = (String) widget.js("for (var i = 0; i < sessionStorage.length; i++) {"
                + " var k = sessionStorage.key(i); if (k.indexOf('lnp-chat-') === 0)"
                + " return JSON.parse(sessionStorage.getItem(k)).session_id; } return null;");
        fake.humanReply(session, "Hello, Sam here.");
        widget.awaitMessage("human_agent", "Sam here");

        fake.closeHandoff(session);
        new WebDriverWait(browser, Duration.ofSeconds(20)).until(d -> widget.find(".human").isEnabled());
        assertEquals("Talk to a person", widget.find(".human").getText());
        assertTrue(widget.all(".msg.assistant").stream().noneMatch(m -> m.getText().contains("Are you there?")));
    }

    @Test
    void talkToAPersonAsksForAHumanAndNarrowScreensGetTheWholeWidth() {
        widget.launcher().click();
        widget.find(".human").click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> !widget.all(".msg.system").isEmpty());
        var request = fake.requests("/api/cxo/chatbot").getLast();
        assertTrue(request.body().path("context").path("request_human").asBoolean());
        assertFalse(widget.find(".human").isEnabled(), "asked once");

        browser.manage().window().setSize(new Dimension(320, 640));
        assertTrue(widget.panelFillsTheWidth(), "the dialog takes the page's whole width, no more");
        assertTrue(widget.find(".send").isDisplayed() && widget.find(".human").isDisplayed());
        assertTrue((Long) widget.js("return document.documentElement.scrollWidth;")
                <= (Long) widget.js("return document.documentElement.clientWidth;"), "no sideways scrolling");
    }

    @Test
    void aPageOnAnOriginThatIsNotAllowedGetsNoChat() {
        browser.get(foreign.origin() + "/");
        widget.awaitState("unavailable", Duration.ofSeconds(15));
        assertFalse(widget.present(), "nothing is rendered");
        assertTrue(fake.requests("/api/cxo/chatbot").stream().noneMatch(r -> foreign.origin().equals(r.origin())));
        assertNull(fake.requests("/api/cxo/config").stream().filter(r -> foreign.origin().equals(r.origin()))
                .findFirst().map(r -> r.cookie()).orElse(null));
    }
}
