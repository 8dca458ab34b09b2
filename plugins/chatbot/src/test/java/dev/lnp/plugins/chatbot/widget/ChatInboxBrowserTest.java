package dev.lnp.plugins.chatbot.widget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The hand-off from both sides in real headless Chromium, two browsers: a visitor on a shop's page asks for a
 * person with a reason and reloads the page (the widget still knows a person was asked); a member in the other
 * browser sees the conversation appear in the chat inbox without reloading, opens it, takes it over and replies;
 * the reply appears in the visitor's widget; the visitor's answer appears on the member's open page by itself;
 * the member closes it and the visitor may ask for a person again. axe-core checks the inbox pages; screenshots go
 * to the folder in -Dlnp.console.screenshots (docs/app for the documentation).
 */
class ChatInboxBrowserTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static Browser visitorBrowser;
    private static Browser memberBrowser;
    private static TestPlatform platform;
    private static HostSite shop;
    private static String base;

    @BeforeAll
    static void start() throws IOException {
        visitorBrowser = Browser.start();
        memberBrowser = Browser.start();
        int port;
        try (var probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        // The member's browser is on this origin (the console checks a form's Origin against it).
        base = "http://localhost:" + port;
        platform = TestPlatform.start("chat-inbox-browser", List.of("chatbot", "issues", "projects"), null, Map.of(
                "lnp.http.port", String.valueOf(port), "lnp.base.url", base));
        shop = new HostSite(base);
    }

    @AfterAll
    static void stop() {
        if (visitorBrowser != null) visitorBrowser.close();
        if (memberBrowser != null) memberBrowser.close();
        if (shop != null) shop.close();
        if (platform != null) platform.close();
    }

    @Test
    void aVisitorHandsOffAndAMemberTakesOverAndReplies() throws Exception {
        UUID workspace = platform.createWorkspace("Acme Shop");
        String admin = platform.key(workspace, "chatbot.read", "chatbot.write");
        var created = platform.post("/api/v1/chatbot/widgets", admin, JSON.writeValueAsString(Map.of(
                "name", "Help", "allowed_origins", List.of(shop.origin()), "greeting", "Hi! How can we help?")));
        assertEquals(201, created.status(), created.body());
        shop.embedSnippet(created.data().path("embed_snippet").asText());

        WebDriver member = memberBrowser.driver();
        member.manage().window().setSize(new Dimension(1280, 900));
        platform.person(workspace, "member").signIn(memberBrowser);
        member.get(base + "/app/chat");
        memberBrowser.waitFor(By.xpath("//h1[text()='Chat inbox']"));
        assertTrue(member.getPageSource().contains("Nobody is waiting for a person."));
        accessible(memberBrowser, "the empty chat inbox");

        // The visitor asks for a person, giving the reason.
        WebDriver visitor = visitorBrowser.driver();
        visitor.manage().window().setSize(new Dimension(1280, 900));
        WidgetDriver widget = new WidgetDriver(visitor);
        visitor.get(shop.origin() + "/");
        widget.awaitState("ready", WAIT);
        widget.launcher().click();
        widget.input().sendKeys("My order 4711 arrived damaged");
        widget.find(".human").click();
        new WebDriverWait(visitor, WAIT).until(d -> !widget.find(".human").isEnabled());
        widget.awaitMessage("system", "asked a person");

        // A reload keeps the hand-off: the button stays disabled, the conversation is resumed.
        visitor.navigate().refresh();
        widget.awaitState("ready", WAIT);
        widget.launcher().click();
        widget.awaitMessage("visitor", "My order 4711 arrived damaged");
        new WebDriverWait(visitor, WAIT).until(d -> !widget.find(".human").isEnabled());
        assertEquals("A person has been asked", widget.find(".human").getText());

        // The member's open inbox shows it by itself (live region), then the conversation.
        new WebDriverWait(member, WAIT).until(d -> !d.findElements(By.linkText("My order 4711 arrived damaged")).isEmpty());
        assertTrue(member.getPageSource().contains("Waiting for a person"));
        accessible(memberBrowser, "the chat inbox with a conversation");
        memberBrowser.shoot("chat-01-inbox");
        member.findElement(By.linkText("My order 4711 arrived damaged")).click();
        memberBrowser.waitFor(By.xpath("//h1[text()='Chat: My order 4711 arrived damaged']"));
        member.findElement(By.xpath("//button[text()='Take over']")).click();
        memberBrowser.waitFor(By.xpath("//*[contains(text(), 'You have taken this conversation over.')]"));
        widget.awaitMessage("system", "A team member has joined");

        // The reply is written under the conversation, on its own page.
        memberBrowser.waitFor(By.id("form1-text")).sendKeys("Hello, this is Sam. We are sending a new pair today.");
        accessible(memberBrowser, "the conversation with its reply form");
        member.findElement(By.xpath("//button[text()='Send reply']")).click();
        memberBrowser.waitFor(By.xpath("//*[contains(text(), 'Reply sent to the visitor.')]"));

        var reply = widget.awaitMessage("human_agent", "We are sending a new pair today.");
        assertTrue(reply.getText().contains("Team member"));
        assertFalse(widget.all(".typing").stream().anyMatch(t -> t.isDisplayed()), "nobody is 'writing an answer'");

        // The visitor answers; the member's open conversation shows it without a reload.
        widget.input().sendKeys("Thank you, Sam!");
        widget.find(".send").click();
        new WebDriverWait(member, WAIT).until(d -> d.getPageSource().contains("Thank you, Sam!"));
        assertFalse(widget.all(".msg.assistant").stream().anyMatch(m -> m.getText().contains("Thank you")),
                "the assistant does not answer a conversation a person has");
        visitorBrowser.shoot("chat-02-widget-reply");
        accessible(memberBrowser, "a conversation");
        memberBrowser.shoot("chat-03-conversation");

        // Closing gives the visitor back to the assistant: the button is there again.
        member.findElement(By.cssSelector("form[action$='/close'] input[name=confirm]")).click();
        member.findElement(By.xpath("//button[text()='Close']")).click();
        memberBrowser.waitFor(By.xpath("//*[contains(text(), 'Conversation closed.')]"));
        widget.awaitMessage("system", "closed this conversation");
        new WebDriverWait(visitor, WAIT).until(d -> widget.find(".human").isEnabled());
        assertEquals("Talk to a person", widget.find(".human").getText());
        assertTrue(member.findElements(By.linkText("Reply")).isEmpty(), "a closed conversation takes no reply");
        accessible(memberBrowser, "a closed conversation");
    }

    private static void accessible(Browser browser, String page) throws Exception {
        assertEquals(List.of(), browser.seriousAccessibilityViolations(), page);
    }
}
