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

    /**
     * Outside office hours: an admin sets the widget's office hours on its console page, a member on duty (the
     * inbox's toggle) is mailed, the visitor is told when the team is back, leaves an address in the widget, and the
     * member reads it on the conversation's page.
     */
    @Test
    void outsideOfficeHoursTheVisitorLeavesAnAddressAndTheMemberOnDutyIsMailed() throws Exception {
        UUID workspace = platform.createWorkspace("Closed Shop");
        String admin = platform.key(workspace, "chatbot.read", "chatbot.write");
        var later = java.time.LocalDate.now(java.time.ZoneOffset.UTC).plusDays(2).getDayOfWeek();
        String day = later.getDisplayName(java.time.format.TextStyle.FULL, java.util.Locale.ENGLISH);
        var created = platform.post("/api/v1/chatbot/widgets", admin, JSON.writeValueAsString(Map.of(
                "name", "Help", "allowed_origins", List.of(shop.origin()))));
        assertEquals(201, created.status(), created.body());
        shop.embedSnippet(created.data().path("embed_snippet").asText());

        // The office hours are set where an admin keeps the widget: its form in the console.
        WebDriver member = memberBrowser.driver();
        platform.person(workspace, "admin").signIn(memberBrowser);
        String widgetPage = base + "/console/chatbot/widgets/" + created.data().path("id").asText();
        member.get(widgetPage + "/edit");
        memberBrowser.waitFor(By.name("time_zone")).sendKeys("UTC");
        member.findElement(By.name(day.toLowerCase(java.util.Locale.ROOT))).sendKeys("10:00-11:00");
        accessible(memberBrowser, "the widget's form with its office hours");
        memberBrowser.shoot("chat-06-console-office-hours");
        member.findElement(By.name("time_zone")).findElement(By.xpath("ancestor::form"))
                .findElement(By.cssSelector("button[type=submit]")).click();
        new WebDriverWait(member, WAIT).until(d -> d.getCurrentUrl().equals(widgetPage));
        assertTrue(member.findElement(By.tagName("main")).getText().contains(day + " 10:00-11:00 (UTC)"),
                "the widget's page says its office hours");

        var person = platform.person(workspace, "member");
        person.signIn(memberBrowser);
        member.get(base + "/app/chat");
        member.findElement(By.xpath("//button[starts-with(text(), 'Go on duty')]")).click();
        memberBrowser.waitFor(By.xpath("//*[contains(text(), 'You are on duty')]"));
        assertFalse(member.findElements(By.xpath("//button[starts-with(text(), 'Go off duty')]")).isEmpty());
        accessible(memberBrowser, "the chat inbox with the member on duty");

        WebDriver visitor = visitorBrowser.driver();
        WidgetDriver widget = new WidgetDriver(visitor);
        visitor.get(shop.origin() + "/");
        widget.awaitState("ready", WAIT);
        widget.launcher().click();
        assertFalse(widget.find(".mail").isDisplayed(), "no address asked for before the hand-off");
        widget.input().sendKeys("Where is my refund?");
        widget.find(".human").click();
        widget.awaitMessage("system", "We are back " + day + " at 10:00 (UTC)");
        new WebDriverWait(visitor, WAIT).until(d -> widget.find(".mail").isDisplayed());
        visitorBrowser.shoot("chat-04-widget-office-hours");
        widget.find("#mail").sendKeys("ada@example.com");
        widget.find(".mail button").click();
        new WebDriverWait(visitor, WAIT).until(d -> widget.find(".status").getText()
                .contains("The team will answer you at ada@example.com."));
        assertFalse(widget.find(".mail").isDisplayed(), "the form goes away once the address is left");

        new WebDriverWait(member, WAIT).until(d -> !d.findElements(By.linkText("Where is my refund?")).isEmpty());
        member.findElement(By.linkText("Where is my refund?")).click();
        new WebDriverWait(member, WAIT).until(d -> d.getPageSource().contains("ada@example.com"));
        accessible(memberBrowser, "a conversation with the visitor's address");
        memberBrowser.shoot("chat-05-conversation-address");
        var mails = platform.platform().mail().mailbox().list(new dev.lnp.api.internal.mail.Mailbox.Query(
                person.email(), null, 10));
        assertEquals(1, mails.size(), mails.toString());
        assertEquals("Chat: a visitor asks for a person: Where is my refund?", mails.get(0).subject());
    }

    private static void accessible(Browser browser, String page) throws Exception {
        assertEquals(List.of(), browser.seriousAccessibilityViolations(), page);
    }
}
