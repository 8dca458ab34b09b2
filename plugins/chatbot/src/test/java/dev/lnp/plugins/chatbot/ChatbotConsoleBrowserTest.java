package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.Browser;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.web.console.ConsoleSessions;
import java.time.Duration;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * An admin manages chat widgets in the console as a person does, in headless Chromium: the empty list, a form whose
 * refused origin is explained next to its field (and keeps what was typed), the key shown once, the list and the
 * widget's page. Screenshots go to the console screenshots folder (docs/chatbot/console-*.png).
 */
@PlatformTest(plugins = {"chatbot"})
class ChatbotConsoleBrowserTest {

    private static final String WIDGETS = "/console/chatbot/widgets";

    @Test
    void anAdminCreatesAWidgetInTheConsole(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("console-browser");
        String email = "admin-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        UUID user = platform.workspaces().addUser(ws, email, "admin");
        String session = new ConsoleSessions(platform.jdbi(), Duration.ofHours(1))
                .create(email, user, "test", "127.0.0.1").token();
        String base = "http://localhost:" + platform.port();
        try (Browser chromium = Browser.start()) {
            WebDriver browser = chromium.driver();
            browser.get(base + "/console/sign-in");
            browser.manage().addCookie(new Cookie("lnp_console", session, "/"));

            browser.get(base + WIDGETS);
            assertTrue(chromium.waitFor(By.tagName("main")).getText().contains("No chat widgets yet."));
            chromium.shoot("console-01-no-widgets");

            browser.get(base + WIDGETS + "/new");
            WebElement origins = chromium.waitFor(By.name("allowed_origins"));
            assertTrue(hasLabel(browser, origins), "the origins field has a label");
            assertTrue(browser.findElement(By.name("streaming")).isSelected(), "a new form starts from the defaults");
            assertEquals("knowledge", browser.findElement(By.name("responder")).getDomProperty("value"));
            browser.findElement(By.name("name")).sendKeys("Help");
            origins.sendKeys("https://shop.example/help");
            submit(browser);
            WebElement error = chromium.waitFor(By.cssSelector("[aria-invalid=true]"));
            assertEquals("allowed_origins", error.getDomAttribute("name"), "the refused field is marked");
            assertTrue(browser.findElement(By.tagName("main")).getText().contains("Allowed origins: Write an origin only"),
                    "the refusal says what to write instead");
            assertEquals("Help", browser.findElement(By.name("name")).getDomProperty("value"), "typed text is kept");
            chromium.shoot("console-02-origin-refused");

            WebElement again = browser.findElement(By.name("allowed_origins"));
            again.clear();
            again.sendKeys(ChatClient.ORIGIN);
            WebElement greeting = browser.findElement(By.name("greeting"));
            greeting.clear();
            greeting.sendKeys("Hi! Ask us about orders, returns and delivery.");
            submit(browser);
            chromium.waitFor(By.tagName("main"));
            Matcher key = Pattern.compile("(lnp_cxo_[A-Za-z0-9_-]{20,})").matcher(browser.getPageSource());
            assertTrue(key.find(), "the new widget's key is shown");
            chromium.shoot("console-03-key-shown-once");
            assertEquals("Hi! Ask us about orders, returns and delivery.",
                    new ChatClient(platform).session(key.group(1)).get("widget").get("greeting").asText(),
                    "the key from the console works on the chat endpoints");

            browser.get(base + WIDGETS);
            WebElement link = chromium.waitFor(By.linkText("Help"));
            assertFalse(browser.getPageSource().contains(key.group(1)), "the key is not shown again");
            chromium.shoot("console-04-widgets");
            link.click();
            chromium.waitFor(By.tagName("h1"));
            assertTrue(browser.findElement(By.tagName("main")).getText().contains("data-key=\"" + key.group(1) + "\""),
                    "the widget's page shows the whole embed snippet whenever it is opened");
            assertTrue(browser.findElement(By.tagName("main")).getText().contains("Streaming\nyes")
                    || browser.findElement(By.tagName("main")).getText().matches("(?s).*Streaming\\s+yes.*"),
                    "created with the defaults the form showed");
            chromium.shoot("console-05-widget");

            // The snippet's Copy button: the platform's own script (the strict CSP allows no other) puts the whole
            // snippet on the clipboard and says so in a live region. Headless Chromium grants the clipboard through
            // the DevTools protocol.
            ((org.openqa.selenium.chromium.HasCdp) browser).executeCdpCommand("Browser.grantPermissions", java.util.Map.of(
                    "permissions", java.util.List.of("clipboardReadWrite", "clipboardSanitizedWrite"), "origin", base));
            WebElement copy = browser.findElement(By.cssSelector("button[data-copy]"));
            assertEquals("Copy", copy.getText());
            assertTrue(copy.getDomAttribute("aria-label").startsWith("Copy"), "the accessible name starts with the visible one");
            WebElement status = browser.findElement(By.id(copy.getDomAttribute("data-copy-status")));
            assertEquals("status", status.getDomAttribute("role"), "the confirmation is announced");
            copy.click();
            new org.openqa.selenium.support.ui.WebDriverWait(browser, Duration.ofSeconds(10))
                    .until(d -> status.getText().equals("Copied to the clipboard."));
            Object copied = ((org.openqa.selenium.JavascriptExecutor) browser).executeAsyncScript(
                    "var done = arguments[arguments.length - 1];"
                            + "navigator.clipboard.readText().then(done, function (e) { done('unreadable: ' + e); });");
            assertTrue(String.valueOf(copied).startsWith("<script src=") && String.valueOf(copied)
                    .contains("data-key=\"" + key.group(1) + "\""), "the whole snippet was copied: " + copied);
            assertEquals(java.util.List.of(), chromium.seriousAccessibilityViolations(), "the widget's page");
            chromium.shoot("console-06-snippet-copied");
        }
    }

    private static void submit(WebDriver browser) {
        browser.findElement(By.name("name")).findElement(By.xpath("ancestor::form"))
                .findElement(By.cssSelector("button[type=submit], input[type=submit]")).click();
    }

    private static boolean hasLabel(WebDriver browser, WebElement field) {
        String id = field.getDomAttribute("id");
        return id != null && !browser.findElements(By.cssSelector("label[for='" + id + "']")).isEmpty();
    }
}
