package dev.lnp.plugins.projects.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.lnp.testkit.TestPlatform;
import jakarta.mail.BodyPart;
import jakarta.mail.Multipart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in real headless Chromium (Debian's chromium and chromium-driver): sign in through the link the
 * SMTP server (GreenMail) caught, create a connection, copy its key once, call the API with it, revoke it in
 * the console, and see the next call refused. Takes a screenshot of every page on the way (target/console-
 * screenshots, or the folder in -Dlnp.console.screenshots, e.g. docs/console).
 */
class ConsoleBrowserTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private static final String OPERATOR = "ops@example.com";
    private static GreenMail greenMail;
    private static TestPlatform platform;
    private static WebDriver browser;
    private static Path screenshots;

    @BeforeAll
    static void start() throws IOException {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "SKIPPED: the console browser test needs Debian's chromium and chromium-driver "
                        + "(apt-get install -y chromium chromium-driver); .ci/run installs them");
        greenMail = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        greenMail.start();
        platform = TestPlatform.start("console-browser", List.of("projects"), null, Map.of(
                "lnp.mail.host", "127.0.0.1",
                "lnp.mail.port", String.valueOf(greenMail.getSmtp().getPort()),
                "lnp.mail.security", "none",
                "lnp.mail.from", "platform@example.com",
                "lnp.mail.poll_interval_ms", "200",
                "lnp.console.operators", OPERATOR));
        var options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--window-size=1280,900");
        var service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).build();
        browser = new ChromeDriver(service, options);
        screenshots = Path.of(System.getProperty("lnp.console.screenshots", "target/console-screenshots"));
        Files.createDirectories(screenshots);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
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
        shoot("01-sign-in");
        browser.findElement(By.id("email")).sendKeys(email);
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        waitFor(By.xpath("//h1[text()='Check your e-mail']"));
        shoot("02-check-your-mail");

        browser.get(awaitLink(email));
        shoot("03-finish-sign-in");
        browser.findElement(By.id("finish-sign-in")).click();
        waitFor(By.xpath("//h1[text()='Choose a workspace']"));
        shoot("04-choose-workspace");
        browser.findElement(By.xpath("//button[text()='Acme Robotics']")).click();
        waitFor(By.xpath("//h1[text()='External connections']"));
        shoot("05-connections-empty");

        browser.findElement(By.id("name")).sendKeys("Reporting robot");
        new Select(browser.findElement(By.id("preset"))).selectByValue("read-only");
        browser.findElement(By.id("create-connection")).click();
        waitFor(By.id("new-key"));
        browser.findElement(By.id("copy-key")).click();
        new WebDriverWait(browser, Duration.ofSeconds(5)).until(d -> !d.findElement(By.id("copy-status")).getText().isEmpty());
        assertTrue(browser.findElement(By.id("copy-status")).getText().contains("Cop")
                || browser.findElement(By.id("copy-status")).getText().contains("Select"));
        String key = browser.findElement(By.id("new-key")).getDomAttribute("value");
        assertTrue(key.startsWith("lnp_"), key);
        shoot("06-key-shown-once");

        assertEquals(200, platform.get("/api/v1/projects", key).status());

        browser.findElement(By.partialLinkText("show the connection")).click();
        waitFor(By.id("revoke-connection"));
        assertTrue(!browser.getPageSource().contains(key), "the key is not shown again");
        shoot("07-connection");
        browser.findElement(By.id("revoke-connection")).click();
        waitFor(By.xpath("//dd[@id='connection-state' and starts-with(text(), 'revoked')]"));
        shoot("08-connection-revoked");

        assertEquals(401, platform.get("/api/v1/projects", key).status());

        browser.get(base + "/console/connections");
        shoot("09-connections");
        browser.findElement(By.linkText("Activity")).click();
        waitFor(By.xpath("//h1[text()='Activity']"));
        assertTrue(browser.getPageSource().contains("connection.revoked"));
        shoot("10-activity");
        browser.findElement(By.linkText("Your sessions")).click();
        waitFor(By.xpath("//h1[text()='Your sessions']"));
        shoot("11-sessions");

        browser.findElement(By.linkText("Members")).click();
        waitFor(By.id("invite-email")).sendKeys("lin@example.com");
        browser.findElement(By.id("invite")).click();
        waitFor(By.xpath("//p[contains(text(), 'invitation is on its way')]"));
        assertTrue(browser.getPageSource().contains("lin@example.com"));
        shoot("12-members");

        browser.findElement(By.linkText("Modules")).click();
        waitFor(By.xpath("//h1[text()='Modules']"));
        shoot("13-modules");
        browser.findElement(By.linkText("Usage")).click();
        waitFor(By.xpath("//h1[text()='Usage']"));
        shoot("14-usage");
        browser.findElement(By.linkText("Mailbox")).click();
        waitFor(By.xpath("//h1[text()='Mailbox']"));
        assertTrue(browser.getPageSource().contains("You are invited to Acme Robotics"));
        shoot("15-mailbox");

        browser.findElement(By.xpath("//button[text()='Sign out']")).click();
        waitFor(By.xpath("//h1[text()='Sign in']"));
        browser.get(base + "/console/connections");
        waitFor(By.xpath("//h1[text()='Sign in']"));
    }

    private static WebElement waitFor(By locator) {
        return new WebDriverWait(browser, Duration.ofSeconds(15)).until(d -> {
            var found = d.findElements(locator);
            return found.isEmpty() ? null : found.get(0);
        });
    }

    private static void shoot(String name) throws IOException {
        byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Files.write(screenshots.resolve(name + ".png"), png);
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
