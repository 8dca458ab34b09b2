package dev.lnp.plugins.projects.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.lnp.testkit.Browser;
import dev.lnp.testkit.TestPlatform;
import jakarta.mail.BodyPart;
import jakarta.mail.Multipart;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in real headless Chromium (Debian's chromium and chromium-driver): sign in through the link the
 * SMTP server (GreenMail) caught, create a connection, copy its key once, call the API with it, revoke it in
 * the console, and see the next call refused. Takes a screenshot of every page on the way (target/console-
 * screenshots, or the folder in -Dlnp.console.screenshots, e.g. docs/console).
 */
class ConsoleBrowserTest {

    private static final String OPERATOR = "ops@example.com";
    private static GreenMail greenMail;
    private static TestPlatform platform;
    private static Browser chromium;
    private static WebDriver browser;

    @BeforeAll
    static void start() throws IOException {
        chromium = Browser.start();
        browser = chromium.driver();
        greenMail = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        greenMail.start();
        platform = TestPlatform.start("console-browser", List.of("projects"), null, Map.of(
                "lnp.mail.host", "127.0.0.1",
                "lnp.mail.port", String.valueOf(greenMail.getSmtp().getPort()),
                "lnp.mail.security", "none",
                "lnp.mail.from", "platform@example.com",
                "lnp.mail.poll_interval_ms", "200",
                "lnp.console.operators", OPERATOR));
    }

    @AfterAll
    static void stop() {
        if (chromium != null) {
            chromium.close();
        }
        if (platform != null) {
            platform.close();
        }
        if (greenMail != null) {
            greenMail.stop();
        }
    }

    @Test
    void signInCreateAKeyUseItAndRevokeIt() throws Exception {
        String base = "http://localhost:" + platform.port();
        String email = OPERATOR;
        var workspace = platform.workspaces().create("Acme Robotics", email);
        var second = platform.workspaces().create("Acme Labs", "grace@example.com");
        platform.workspaces().addUser(second.id(), email, "member");
        platform.workspaces().addUser(workspace.id(), "grace@example.com", "admin");

        browser.get(base + "/console/sign-in");
        chromium.shoot("01-sign-in");
        browser.findElement(By.id("email")).sendKeys(email);
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        chromium.waitFor(By.xpath("//h1[text()='Check your e-mail']"));
        chromium.shoot("02-check-your-mail");

        browser.get(awaitLink(email));
        chromium.shoot("03-finish-sign-in");
        browser.findElement(By.id("finish-sign-in")).click();
        chromium.waitFor(By.xpath("//h1[text()='Choose a workspace']"));
        chromium.shoot("04-choose-workspace");
        browser.findElement(By.xpath("//button[text()='Acme Robotics']")).click();
        chromium.waitFor(By.xpath("//h1[text()='External connections']"));
        chromium.shoot("05-connections-empty");

        browser.findElement(By.id("name")).sendKeys("Reporting robot");
        new Select(browser.findElement(By.id("preset"))).selectByValue("read-only");
        browser.findElement(By.id("create-connection")).click();
        chromium.waitFor(By.id("new-key"));
        browser.findElement(By.id("copy-key")).click();
        new WebDriverWait(browser, Duration.ofSeconds(5)).until(d -> !d.findElement(By.id("copy-status")).getText().isEmpty());
        assertTrue(browser.findElement(By.id("copy-status")).getText().contains("Cop")
                || browser.findElement(By.id("copy-status")).getText().contains("Select"));
        String key = browser.findElement(By.id("new-key")).getDomAttribute("value");
        assertTrue(key.startsWith("lnp_"), key);
        chromium.shoot("06-key-shown-once");

        assertEquals(200, platform.get("/api/v1/projects", key).status());

        // Reloading the page that showed the key re-posts nothing: the key is gone and there is one connection.
        browser.navigate().refresh();
        chromium.waitFor(By.xpath("//h1[text()='The key was shown once']"));
        assertTrue(!browser.getPageSource().contains(key), "a reload does not show the key again");
        assertEquals(1, platform.connections().list(workspace.id()).size(), "a reload creates no second connection");

        browser.findElement(By.partialLinkText("Show the connection")).click();
        chromium.waitFor(By.id("revoke-connection"));
        assertTrue(!browser.getPageSource().contains(key), "the key is not shown again");
        chromium.shoot("07-connection");
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), "07-connection");
        browser.findElement(By.id("revoke-connection")).click();
        chromium.waitFor(By.id("confirm-action"));
        assertEquals(200, platform.get("/api/v1/projects", key).status(), "nothing happens before the confirmation");
        chromium.shoot("07b-confirm-revoke");
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), "07b-confirm-revoke");
        browser.findElement(By.id("confirm-action")).click();
        chromium.waitFor(By.xpath("//dd[@id='connection-state' and starts-with(text(), 'revoked')]"));
        chromium.shoot("08-connection-revoked");
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), "08-connection-revoked");

        assertEquals(401, platform.get("/api/v1/projects", key).status());

        browser.get(base + "/console/connections");
        chromium.shoot("09-connections");
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), "09-connections");
        browser.findElement(By.linkText("Activity")).click();
        chromium.waitFor(By.xpath("//h1[text()='Activity']"));
        assertTrue(browser.getPageSource().contains("connection.revoked"));
        chromium.shoot("10-activity");
        browser.findElement(By.linkText("Your sessions")).click();
        chromium.waitFor(By.xpath("//h1[text()='Your sessions']"));
        chromium.shoot("11-sessions");

        browser.findElement(By.linkText("Members")).click();
        chromium.waitFor(By.id("invite-email")).sendKeys("lin@example.com");
        browser.findElement(By.id("invite")).click();
        chromium.waitFor(By.xpath("//p[contains(text(), 'invitation is on its way')]"));
        assertTrue(browser.getPageSource().contains("lin@example.com"));
        chromium.shoot("12-members");
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), "12-members");

        browser.findElement(By.linkText("Modules")).click();
        chromium.waitFor(By.xpath("//h1[text()='Modules']"));
        chromium.shoot("13-modules");
        browser.findElement(By.linkText("Usage")).click();
        chromium.waitFor(By.xpath("//h1[text()='Usage']"));
        chromium.shoot("14-usage");
        browser.findElement(By.linkText("Mailbox")).click();
        chromium.waitFor(By.xpath("//h1[text()='Mailbox']"));
        assertTrue(browser.getPageSource().contains("You are invited to Acme Robotics"));
        chromium.shoot("15-mailbox");

        browser.findElement(By.xpath("//button[text()='Sign out']")).click();
        chromium.waitFor(By.xpath("//h1[text()='Sign in']"));
        browser.get(base + "/console/connections");
        chromium.waitFor(By.xpath("//h1[text()='Sign in']"));
    }

    private static String awaitLink(String email) throws Exception {
        Pattern link = Pattern.compile("(http://localhost:\\d+/console/sign-in/link\\?token=[A-Za-z0-9_%-]+)");
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            for (var message : greenMail.getReceivedMessages()) {
                if (message.getAllRecipients()[0].toString().equalsIgnoreCase(email)) {
                    Matcher m = link.matcher(text(message.getContent()));
                    assertTrue(m.find());
                    return m.group(1);
                }
            }
            greenMail.waitForIncomingEmail(500, 1);
        }
        throw new AssertionError("no sign-in mail to " + email);
    }

    private static String text(Object content) throws Exception {
        if (content instanceof String s) {
            return s;
        }
        Multipart multipart = (Multipart) content;
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < multipart.getCount(); i++) {
            BodyPart part = multipart.getBodyPart(i);
            all.append(text(part.getContent()));
        }
        return all.toString();
    }
}
