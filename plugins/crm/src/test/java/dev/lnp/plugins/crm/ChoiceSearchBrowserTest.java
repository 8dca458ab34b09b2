package dev.lnp.plugins.crm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.pages.FormView;
import dev.lnp.testkit.Browser;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A long choice of records (a contact's company, among more than {@link FormView#SEARCH_ABOVE}) used from the
 * keyboard in real headless Chromium: the search box above the list narrows it as the person types (Enter there
 * narrows at once and sends nothing), Tab or the down arrow goes on to the narrowed list, the arrow keys choose in it. axe-core checks the narrowed form.
 */
@PlatformTest(plugins = "crm")
class ChoiceSearchBrowserTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

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
    void typingNarrowsALongChoiceAndTheKeyboardChoosesInIt(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("Many Companies");
        String key = platform.key(ws, "companies.write");
        for (int i = 1; i <= FormView.SEARCH_ABOVE + 5; i++) {
            String name = i == 7 ? "Zuse Rechenmaschinen" : i == 8 ? "Zürich Instruments" : "Company " + i;
            var created = platform.post("/api/v1/crm/companies", key, "{\"name\":\"" + name + "\"}");
            assertEquals(201, created.status(), created.body());
        }
        platform.person(ws, "member").signIn(chromium);
        browser.get("http://localhost:" + platform.port() + "/app/crm/contacts/new");
        WebElement search = chromium.waitFor(By.id("f-company_id-q"));
        assertTrue(search.isDisplayed(), "the search box shows once the page's script runs");
        Select companies = new Select(browser.findElement(By.id("f-company_id")));
        assertEquals(FormView.SEARCH_ABOVE + 6, companies.getOptions().size(), "every company and No company");

        browser.findElement(By.id("f-email")).sendKeys("konrad@example.com");
        search.click();
        search.sendKeys("zu");
        // Accents and case are ignored: "zu" finds Zürich as well as Zuse.
        new WebDriverWait(browser, WAIT).until(d -> optionTexts(d).equals(
                List.of("No company", "Zuse Rechenmaschinen", "Zürich Instruments")));
        search.sendKeys("se");
        new WebDriverWait(browser, WAIT).until(d -> optionTexts(d).equals(List.of("No company", "Zuse Rechenmaschinen")));
        chromium.shoot("crm-09-choice-search");
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), "the narrowed company choice");

        // Enter in the search box narrows at once; it does not send the half-filled form.
        search.sendKeys(Keys.ENTER);
        assertTrue(browser.getCurrentUrl().endsWith("/app/crm/contacts/new"), browser.getCurrentUrl());
        search.sendKeys(Keys.TAB);
        WebElement list = browser.switchTo().activeElement();
        assertEquals("f-company_id", list.getAttribute("id"), "Tab goes from the search box to its list");
        list.sendKeys(Keys.ARROW_DOWN);
        assertEquals("Zuse Rechenmaschinen", new Select(list).getFirstSelectedOption().getText());
        // The down arrow in the search box goes to the list as well.
        search.sendKeys(Keys.ARROW_DOWN);
        assertEquals("f-company_id", browser.switchTo().activeElement().getAttribute("id"));
        browser.findElement(By.cssSelector("main form button[type=submit]")).sendKeys(Keys.ENTER);
        chromium.waitFor(By.xpath("//p[text()='Contact konrad@example.com created.']"));
        assertTrue(browser.findElement(By.tagName("main")).getText().contains("Zuse Rechenmaschinen"),
                "the contact's company, by name");
    }

    private static List<String> optionTexts(WebDriver driver) {
        // Read in one script: htmx replaces the options while the search answers, and an option read one by one
        // may be gone by the time it is read.
        @SuppressWarnings("unchecked")
        List<String> texts = (List<String>) ((org.openqa.selenium.JavascriptExecutor) driver).executeScript(
                "return Array.from(document.querySelectorAll('#f-company_id option')).map(o => o.textContent.trim());");
        return texts;
    }
}
