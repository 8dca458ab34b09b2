package dev.lnp.plugins.crm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.openqa.selenium.support.ui.Select;

/**
 * A salesperson's day in real headless Chromium: create a contact, open a deal from their page, move it across
 * the pipeline board by keyboard, and be told in words why a won deal cannot drift back. axe-core checks every
 * page; the screenshots (target/console-screenshots, or -Dlnp.console.screenshots=docs/app) are looked at.
 */
@PlatformTest(plugins = "crm")
class CrmBrowserTest {

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
    void aContactADealAndItsWayThroughThePipeline(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("Acme Robotics");
        platform.person(ws, "member").signIn(chromium);
        String base = "http://localhost:" + platform.port();

        browser.get(base + "/app/crm/companies");
        chromium.waitFor(By.xpath("//h1[text()='Companies']"));
        accessible("the empty companies list");
        chromium.waitFor(By.linkText("New company")).click();
        chromium.waitFor(By.id("f-name")).sendKeys("Analytical Engines Ltd");
        browser.findElement(By.id("f-domain")).sendKeys("engines.example");
        browser.findElement(By.id("f-website")).sendKeys("not a website");
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        chromium.waitFor(By.id("errors"));
        accessible("the company form with its error");
        chromium.shoot("crm-00-company-error");
        browser.findElement(By.id("f-website")).clear();
        browser.findElement(By.id("f-website")).sendKeys("https://engines.example");
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        chromium.waitFor(By.xpath("//h1[text()='Analytical Engines Ltd']"));
        String companyId = browser.getCurrentUrl().substring(browser.getCurrentUrl().lastIndexOf('/') + 1);

        browser.get(base + "/app/crm/contacts");
        chromium.waitFor(By.xpath("//h1[text()='Contacts']"));
        accessible("the empty contacts list");
        chromium.waitFor(By.linkText("New contact")).click();
        chromium.waitFor(By.id("f-email")).sendKeys("ada@example.com");
        new Select(browser.findElement(By.id("f-company_id"))).selectByValue(companyId);   // chosen by name
        browser.findElement(By.id("f-first_name")).sendKeys("Ada");
        browser.findElement(By.id("f-last_name")).sendKeys("Lovelace");
        new Select(browser.findElement(By.id("f-contact_type"))).selectByValue("customer");
        accessible("the new contact form");
        chromium.shoot("crm-01-new-contact");
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        chromium.waitFor(By.xpath("//h1[text()='Ada Lovelace']"));
        assertTrue(browser.getPageSource().contains("Contact Ada Lovelace created."));
        accessible("the contact's page");
        chromium.shoot("crm-02-contact");

        String contactId = browser.getCurrentUrl().substring(browser.getCurrentUrl().lastIndexOf('/') + 1);
        browser.get(base + "/app/crm/deals/new?contact_id=" + contactId);
        chromium.waitFor(By.id("f-title")).sendKeys("Analytical engine");
        browser.findElement(By.id("f-value")).sendKeys("250000");
        browser.findElement(By.id("f-currency")).sendKeys("GBP");
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        chromium.waitFor(By.xpath("//h1[text()='Analytical engine']"));
        String dealId = browser.getCurrentUrl().substring(browser.getCurrentUrl().lastIndexOf('/') + 1);

        browser.get(base + "/app/crm/pipeline");
        chromium.waitFor(By.xpath("//h1[text()='Pipeline']"));
        accessible("the pipeline board");
        chromium.shoot("crm-03-pipeline");
        // By keyboard: the card's own "Move to" choice and its button.
        WebElement card = browser.findElement(By.xpath("//li[.//a[text()='Analytical engine']]"));
        WebElement choice = card.findElement(By.tagName("select"));
        new Select(choice).selectByValue("closed_won");
        card.findElement(By.cssSelector("button[type=submit]")).sendKeys(Keys.ENTER);
        chromium.waitFor(By.xpath("//p[text()='Deal Analytical engine moved to Closed won.']"));
        assertTrue(browser.findElement(By.cssSelector("section[data-lane='closed_won']")).getText()
                .contains("Analytical engine"));
        chromium.shoot("crm-04-pipeline-won");

        // The open board refreshes itself when the move's event arrives (server-sent events): take the card anew
        // if the refresh replaced it while it was being used.
        for (int attempt = 1; ; attempt++) {
            try {
                card = browser.findElement(By.xpath("//li[.//a[text()='Analytical engine']]"));
                new Select(card.findElement(By.tagName("select"))).selectByValue("proposal");
                card.findElement(By.cssSelector("button[type=submit]")).click();
                break;
            } catch (org.openqa.selenium.StaleElementReferenceException replaced) {
                if (attempt == 3) throw replaced;
            }
        }
        chromium.waitFor(By.xpath("//h1[text()='This did not happen']"));
        assertTrue(browser.getPageSource().contains("reopen it explicitly"), "the rule, in words");
        accessible("the refused move");
        chromium.shoot("crm-05-refused-move");

        browser.get(base + "/app/crm/contacts?sort=name&type=customer");
        chromium.waitFor(By.xpath("//h1[text()='Contacts']"));
        assertEquals(1, browser.findElements(By.cssSelector("tbody tr")).size());
        chromium.shoot("crm-06-contacts-filtered");

        browser.get(base + "/app/crm/companies/" + companyId);
        chromium.waitFor(By.xpath("//h1[text()='Analytical Engines Ltd']"));
        assertTrue(browser.findElement(By.linkText("Ada Lovelace")).isDisplayed(), "the company's contacts");
        assertTrue(browser.getPageSource().contains("250,000 GBP in") || browser.getPageSource().contains("No open deals"),
                "the company's pipeline value");
        accessible("the company's page");
        chromium.shoot("crm-07-company");

        // The contact's timeline: their own change, the won deal changed by an API connection afterwards, its move
        // and the contact's creation, newest first, each with who did it.
        browser.get(base + "/app/crm/contacts/" + contactId + "/edit");
        chromium.waitFor(By.id("f-phone")).sendKeys("+44 20 7946 0000");
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        chromium.waitFor(By.xpath("//p[text()='Contact Ada Lovelace saved.']"));
        String key = platform.key(ws, "deals.write");
        assertEquals(200, platform.patch("/api/v1/crm/deals/" + dealId, key, "{\"probability\":100}").status());
        browser.get(base + "/app/crm/contacts/" + contactId);
        chromium.waitFor(By.xpath("//h1[text()='Ada Lovelace']"));
        String timeline = browser.findElement(By.xpath("//table[caption[text()='Activity']]")).getText();
        assertTrue(timeline.indexOf("Deal “Analytical engine” won (from Discovery)")
                < timeline.indexOf("Deal “Analytical engine” created in Discovery"), timeline);
        assertTrue(timeline.indexOf("Deal “Analytical engine” created in Discovery")
                < timeline.indexOf("Contact created"), timeline);
        assertTrue(timeline.indexOf("Deal “Analytical engine” changed: probability") < timeline.indexOf("Changed phone"),
                timeline);
        assertTrue(timeline.contains("You") && timeline.contains("API connection "), timeline);
        accessible("the contact's page with its activity");
        chromium.shoot("crm-08-contact-timeline");

        browser.get(base + "/app/crm/contacts/" + contactId + "/activity");
        chromium.waitFor(By.xpath("//h1[text()='Activity of Ada Lovelace']"));
        accessible("the contact's whole activity");
    }

    private static void accessible(String page) throws Exception {
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), page);
    }
}
