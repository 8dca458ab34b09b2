package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.Json;
import dev.lnp.testkit.Browser;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The application's search box in real headless Chromium, by keyboard: "/" focuses it, typing shows suggestions
 * from every module, the arrow keys and Enter open one; Enter alone shows the search page. axe-core checks the
 * pages with the suggestions open; the screenshots (-Dlnp.console.screenshots=docs/app) are looked at.
 */
@PlatformTest(plugins = {"crm", "projects", "issues"})
class AppSearchBrowserTest {

    private static Browser chromium;
    private static WebDriver browser;

    @BeforeAll
    static void start() throws Exception {
        chromium = Browser.start();
        browser = chromium.driver();
    }

    @AfterAll
    static void stop() {
        if (chromium != null) chromium.close();
    }

    @Test
    void slashTypeAndOpenAHit(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("Acme Robotics");
        String key = platform.key(ws, "contacts.write", "companies.write", "deals.write", "projects.write",
                "issues.write");
        String ada = Json.parse(platform.post("/api/v1/crm/contacts", key,
                "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\",\"email\":\"ada@acme.example\"}").body())
                .path("id").asText();
        platform.post("/api/v1/crm/companies", key, "{\"name\":\"Lovelace Engines\",\"domain\":\"lovelace.example\"}");
        platform.post("/api/v1/crm/deals", key, "{\"title\":\"Lovelace notes licence\"}");
        platform.post("/api/v1/projects", key, "{\"name\":\"Lovelace archive\"}");
        platform.post("/api/v1/issues", key, "{\"kind\":\"task\",\"title\":\"Scan the Lovelace notes\"}");
        platform.person(ws, "admin").signIn(chromium);
        String base = "http://localhost:" + platform.port();

        browser.get(base + "/app/crm/contacts");
        chromium.waitFor(By.xpath("//h1[text()='Contacts']"));
        accessible("the contacts list in the shell");
        chromium.shoot("shell-01-contacts");

        new Actions(browser).sendKeys("/").perform();
        WebElement box = browser.findElement(By.id("app-search-q"));
        assertEquals(box, browser.switchTo().activeElement(), "/ focuses the search box");
        box.sendKeys("lovel");
        chromium.waitFor(By.cssSelector("#app-search-suggestions li[role=option]"));
        List<WebElement> options = new WebDriverWait(browser, java.time.Duration.ofSeconds(10)).until(d -> {
            var found = d.findElements(By.cssSelector("#app-search-suggestions li[role=option]"));
            return found.size() >= 6 ? found : null;
        });
        assertEquals("true", box.getAttribute("aria-expanded"));
        assertEquals(0L, ((org.openqa.selenium.JavascriptExecutor) browser).executeScript(
                "return document.querySelectorAll('style, [style]').length;"),
                "htmx added no inline style, which the strict CSP would refuse");
        assertTrue(options.get(0).getText().contains("Lovelace"), options.get(0).getText());
        accessible("the suggestions");
        chromium.shoot("shell-02-suggestions");

        box.sendKeys(Keys.ARROW_DOWN);
        String active = box.getAttribute("aria-activedescendant");
        assertEquals("true", browser.findElement(By.id(active)).getAttribute("aria-selected"));
        String contact = browser.findElements(By.cssSelector("#app-search-suggestions li[role=option]")).stream()
                .filter(o -> o.getText().contains("Ada Lovelace")).findFirst().orElseThrow().getAttribute("id");
        while (!box.getAttribute("aria-activedescendant").equals(contact)) {
            box.sendKeys(Keys.ARROW_DOWN);
        }
        box.sendKeys(Keys.ENTER);
        chromium.waitFor(By.xpath("//h1[text()='Ada Lovelace']"));
        assertTrue(browser.getCurrentUrl().endsWith("/app/crm/contacts/" + ada), browser.getCurrentUrl());

        new Actions(browser).sendKeys("/").perform();
        box = browser.switchTo().activeElement();
        box.sendKeys("lovelace");
        chromium.waitFor(By.cssSelector("#app-search-suggestions li[role=option]"));
        box.sendKeys(Keys.ESCAPE);
        assertEquals("false", box.getAttribute("aria-expanded"), "Escape closes the suggestions");
        assertEquals("lovelace", box.getAttribute("value"), "and keeps what was typed");
        box.sendKeys(Keys.ENTER);
        chromium.waitFor(By.xpath("//h1[text()='Search']"));
        chromium.waitFor(By.id("found-tasks"));
        accessible("the search page");
        chromium.shoot("shell-03-search-page");
        browser.findElement(By.linkText("Scan the Lovelace notes")).click();
        chromium.waitFor(By.xpath("//h1[text()='Scan the Lovelace notes']"));

        browser.get(base + "/app/search?q=babbage");
        chromium.waitFor(By.xpath("//p[contains(., 'Nothing found for')]"));
        accessible("nothing found");
        browser.get(base + "/app/search?q=" + "x".repeat(201));
        chromium.waitFor(By.xpath("//h2[text()='This cannot be searched']"));
        accessible("a search that cannot be run");
        chromium.shoot("shell-04-search-refused");
    }

    private static void accessible(String page) throws Exception {
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), page);
    }
}
