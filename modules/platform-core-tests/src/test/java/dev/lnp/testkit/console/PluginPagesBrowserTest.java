package dev.lnp.testkit.console;

import dev.lnp.testkit.MailCatcher;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.Browser;
import dev.lnp.testkit.TestPlatform;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A plugin's pages (the probe's desk and items) and its page for people in real headless Chromium (Debian's chromium and
 * chromium-driver), signing in by the e-mailed link as a person does (GreenMail receives it). Screenshots go to
 * target/console-screenshots, or the folder in -Dlnp.console.screenshots (e.g. docs/console).
 */
class PluginPagesBrowserTest {

    private static MailCatcher mail;
    private static TestPlatform platform;
    private static Browser chromium;
    private static WebDriver browser;

    @BeforeAll
    static void start() throws IOException {
        chromium = Browser.start();
        browser = chromium.driver();
        mail = new MailCatcher();
        platform = TestPlatform.start("plugin-pages-browser", List.of("probe"), null, new HashMap<>(mail.platformConfig()));
    }

    @AfterAll
    static void stop() {
        if (chromium != null) {
            chromium.close();
        }
        if (platform != null) {
            platform.close();
        }
        if (mail != null) {
            mail.close();
        }
    }

    private static String base() {
        return "http://localhost:" + platform.port();
    }

    /** Opens the mailed link in this browser and presses its button. */
    /**
     * Opens the mailed link and presses its button, then waits for the page after it: the link's page has an h1 of
     * its own, and a test that went on at once raced the sign-in on a loaded machine.
     */
    private static void followLink(String email, int nth) {
        browser.get(mail.awaitLink(email, nth));
        var finish = chromium.waitFor(By.cssSelector("main form button[type=submit]"));
        finish.click();
        new WebDriverWait(browser, Duration.ofSeconds(15)).until(ExpectedConditions.stalenessOf(finish));
    }

    @Test
    void deskPagesCreateAskFirstAndShowAKeyOnce() throws Exception {
        String email = "ada-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        platform.workspaces().create("Acme Robotics", email);
        browser.manage().deleteAllCookies();
        browser.get(base() + "/console/sign-in");
        chromium.waitFor(By.id("email")).sendKeys(email);
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        chromium.waitFor(By.xpath("//h1[text()='Check your e-mail']"));
        followLink(email, 1);
        chromium.waitFor(By.tagName("h1"));
        browser.get(base() + "/app/probe/items");
        chromium.waitFor(By.xpath("//h1[text()='Items']"));

        browser.findElement(By.linkText("New item")).click();
        chromium.waitFor(By.id("f-title")).sendKeys("Front desk printer");
        new Select(browser.findElement(By.id("f-kind"))).selectByValue("a");
        browser.findElement(By.id("f-copies")).sendKeys("2");
        browser.findElement(By.id("f-tags")).sendKeys("floor-2\nshared");
        browser.findElement(By.id("f-contact")).sendKeys("ops at example");
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        chromium.waitFor(By.id("errors"));
        assertTrue(browser.findElement(By.id("f-contact-note")).getText().contains("Enter an e-mail address"),
                "the error next to its field");
        assertEquals("Front desk printer", browser.findElement(By.id("f-title")).getDomProperty("value"), "kept");
        chromium.shoot("desk-01-form-error");

        // The summary links to the field; fix it from the keyboard.
        browser.findElement(By.cssSelector("#errors a[href='#f-contact']")).click();
        var contact = browser.findElement(By.id("f-contact"));
        contact.clear();
        contact.sendKeys("ops@example.com");
        browser.findElement(By.id("f-pinned")).click();
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        chromium.waitFor(By.xpath("//p[text()='The item was created.']"));
        assertTrue(browser.findElement(By.cssSelector("dl.facts")).getText().contains("floor-2, shared"));
        chromium.shoot("desk-02-item");

        // Rotating the key asks first: the button posts only once the box is ticked.
        String rotate = "main form[action$='/rotate-key']";
        browser.findElement(By.cssSelector(rotate + " button[type=submit]")).click();
        assertTrue(browser.findElements(By.id("once-value")).isEmpty(), "not sent without the ticked box");
        browser.findElement(By.cssSelector(rotate + " input[name=confirm]")).click();
        browser.findElement(By.cssSelector(rotate + " button[type=submit]")).click();
        chromium.waitFor(By.id("once-value"));
        browser.findElement(By.id("copy-once")).click();
        new WebDriverWait(browser, Duration.ofSeconds(5))
                .until(d -> !d.findElement(By.id("copy-status")).getText().isEmpty());
        assertTrue(browser.findElement(By.id("once-value")).getDomAttribute("value").startsWith("desk_"));
        chromium.shoot("desk-03-key-once");
        browser.navigate().refresh();
        chromium.waitFor(By.cssSelector("dl.facts"));
        assertTrue(browser.findElements(By.id("once-value")).isEmpty(), "shown once");

        browser.findElement(By.linkText("Notes")).click();
        chromium.waitFor(By.xpath("//h1[text()='Notes on Front desk printer']"));
        browser.findElement(By.linkText("New note")).click();
        chromium.waitFor(By.id("f-body")).sendKeys("Toner is low");
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        chromium.waitFor(By.xpath("//td[text()='Toner is low']"));
        chromium.shoot("desk-04-notes");

        browser.get(base() + "/console/activity");
        chromium.waitFor(By.xpath("//*[contains(text(), '/app/probe/items/{id}/rotate-key')]"));
        chromium.shoot("desk-05-activity");
    }

    @Test
    void pagesOfThePageApiInTheApplication() throws Exception {
        String email = "grace-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        UUID ws = platform.workspaces().create("Acme Robotics", email).id();
        for (String title : List.of("Front desk printer", "Lobby screen", "Meeting room camera")) {
            platform.jdbi().useHandle(h -> h.createUpdate("""
                            INSERT INTO probe.desk_items (workspace_id, title, kind, tags) VALUES (:ws, :t, 'a', '{}')
                            """).bind("ws", ws).bind("t", title).execute());
        }
        browser.manage().deleteAllCookies();
        browser.get(base() + "/console/sign-in");
        chromium.waitFor(By.id("email")).sendKeys(email);
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        chromium.waitFor(By.xpath("//h1[text()='Check your e-mail']"));
        followLink(email, 1);
        chromium.waitFor(By.cssSelector("main h1"));

        browser.get(base() + "/app");
        chromium.waitFor(By.xpath("//h1[text()='Items']"));
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), "the list");
        chromium.shoot("app-01-list");

        chromium.waitFor(By.id("filter-q")).sendKeys("room");
        browser.findElement(By.cssSelector("form.filters button[type=submit]")).click();
        chromium.waitFor(By.xpath("//input[@id='filter-q' and @value='room']"));
        assertTrue(browser.getCurrentUrl().endsWith("/app/probe/items?q=room&kind="), browser.getCurrentUrl());
        assertEquals(1, browser.findElements(By.cssSelector("tbody tr")).size());
        chromium.shoot("app-02-filtered");

        browser.findElement(By.linkText("Meeting room camera")).click();
        chromium.waitFor(By.linkText("Edit")).click();
        var title = chromium.waitFor(By.id("f-title"));
        title.clear();
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        chromium.waitFor(By.id("errors"));
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), "the form with its errors");
        chromium.shoot("app-03-form-error");
        browser.findElement(By.id("f-title")).sendKeys("Boardroom camera");
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        chromium.waitFor(By.xpath("//p[text()='The item was saved.']"));
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), "the item's page");
        chromium.shoot("app-04-detail");

        browser.findElement(By.linkText("Board")).click();
        chromium.waitFor(By.xpath("//h1[text()='Board']"));
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), "the board");
        chromium.shoot("app-05-board");
        // Without a mouse: the card's own "Move to" choice and button.
        var card = browser.findElement(By.xpath("//li[.//a[text()='Boardroom camera']]"));
        new Select(card.findElement(By.tagName("select"))).selectByValue("b");
        card.findElement(By.cssSelector("button[type=submit]")).click();
        chromium.waitFor(By.xpath("//p[text()='Moved to kind b.']"));
        assertTrue(browser.findElement(By.cssSelector("section[data-lane='b']")).getText().contains("Boardroom camera"));
        chromium.shoot("app-06-board-moved");

        // Someone else adds an item and its event is published: the open board shows it without a reload.
        browser.findElement(By.tagName("h1")).click();
        platform.jdbi().useHandle(h -> h.createUpdate("""
                        INSERT INTO probe.desk_items (workspace_id, title, kind, tags) VALUES (:ws, 'Hallway sensor', 'b', '{}')
                        """).bind("ws", ws).execute());
        Thread.sleep(1500);
        var published = platform.post("/api/v1/probe/events", platform.key(ws, "probe.write"), "{\"count\":1}");
        assertEquals(201, published.status(), published.body());
        chromium.waitFor(By.xpath("//p[@data-live and text()='Updated just now.']"));
        assertTrue(browser.findElement(By.cssSelector("section[data-lane='b']")).getText().contains("Hallway sensor"));
        chromium.shoot("app-07-board-live");
    }

    @Test
    void aPageForPeopleSignsInTheAddressItIsFor() throws Exception {
        String email = "trial-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        String other = "someone-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        String page = base() + "/api/probe/approve?for=" + URLEncoder.encode(email, StandardCharsets.UTF_8);
        browser.manage().deleteAllCookies();

        // Signed in as someone else first: the page says so and offers to switch.
        browser.get(base() + "/api/probe/approve?for=" + URLEncoder.encode(other, StandardCharsets.UTF_8));
        chromium.waitFor(By.xpath("//button[text()='E-mail me a sign-in link']")).click();
        chromium.waitFor(By.xpath("//h1[text()='Check your e-mail']"));
        followLink(other, 1);
        chromium.waitFor(By.xpath("//button[text()='Approve']"));

        browser.get(page);
        chromium.waitFor(By.xpath("//button[text()='Sign in as " + email + " instead']"));
        chromium.shoot("people-01-wrong-address");
        browser.findElement(By.xpath("//button[text()='Sign in as " + email + " instead']")).click();
        chromium.waitFor(By.xpath("//h1[text()='Check your e-mail']"));
        chromium.shoot("people-02-link-sent");
        followLink(email, 1);
        chromium.waitFor(By.xpath("//button[text()='Approve']"));
        assertEquals(page, browser.getCurrentUrl(), "back at the page");
        assertTrue(browser.findElement(By.tagName("main")).getText().contains("Signed in as " + email));
        chromium.shoot("people-03-signed-in");
        browser.findElement(By.xpath("//button[text()='Approve']")).click();
        chromium.waitFor(By.xpath("//h1[text()='Approved']"));
        chromium.shoot("people-04-approved");
    }
}
