package dev.lnp.plugins.issues;

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

/**
 * Answering a ticket in real headless Chromium, by keyboard only: from the inbox to the ticket, a reply written on
 * the ticket's page (refused empty, then sent), an internal note, "Assign to me", a status change, and a refused
 * assignee said in words. axe-core checks every page;
 * the screenshots are looked at.
 */
@PlatformTest(plugins = {"projects", "issues"})
class TicketInboxBrowserTest {

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
    void aTicketIsAnsweredByKeyboard(TestPlatform platform) throws Exception {
        Fixtures f = Fixtures.workspace(platform, "Acme Support");
        f.issue("{\"kind\":\"ticket\",\"title\":\"Invoice copy for March\",\"priority\":\"low\",\"status\":\"pending\","
                + "\"assignee_id\":\"" + f.user() + "\"}");
        UUID ticket = f.issue("{\"kind\":\"ticket\",\"title\":\"Parcel never arrived\",\"priority\":\"high\","
                + "\"description\":\"Order 1234 was due on Monday.\"}");
        f.issue("{\"kind\":\"ticket\",\"title\":\"Password reset link expired\",\"status\":\"open\"}");
        platform.post("/api/v1/issues/" + ticket + "/comments", f.key(), "{\"body\":\"Where is my parcel? It was a gift.\"}");
        platform.person(f.ws(), "member").signIn(chromium);
        String base = "http://localhost:" + platform.port();

        browser.get(base + "/app/support/tickets?unassigned=true");
        chromium.waitFor(By.xpath("//h1[text()='Tickets']"));
        accessible("the inbox");
        chromium.shoot("support-01-inbox-unassigned");

        press(By.linkText("Parcel never arrived"), Keys.ENTER);
        chromium.waitFor(By.xpath("//h1[text()='Parcel never arrived']"));
        accessible("the ticket's page");

        // The reply is written under the conversation, on the ticket's own page.
        press(By.id("form1-body"), Keys.END);
        tab(2).sendKeys(Keys.ENTER);                      // "Send" with nothing written
        chromium.waitFor(By.xpath("//section[@id='form1']//a[text()='Message: Fill in Message.']"));
        chromium.waitFor(By.xpath("//h1[text()='Parcel never arrived']"));
        accessible("the ticket's page with a refused reply");
        WebElement message = chromium.waitFor(By.id("form1-body"));
        message.sendKeys("Sorry about that. We are asking the carrier and will write again today.");
        tab(2).sendKeys(Keys.ENTER);                      // past "Internal note" to "Send"
        shown("Reply added to the conversation.", "//td[starts-with(text(), 'Sorry about that.')]");

        press(By.id("form1-body"), "Carrier confirms the parcel is lost; refund without asking for proof.");
        tab(1).sendKeys(Keys.SPACE);                      // tick "Internal note"
        assertTrue(browser.findElement(By.id("form1-internal")).isSelected(), "ticked by keyboard");
        tab(1).sendKeys(Keys.ENTER);
        shown("Internal note added.", "//td[starts-with(text(), 'Carrier confirms')]");

        press(By.xpath("//button[text()='Assign to me']"), Keys.ENTER);
        shown("Ticket Parcel never arrived: assigned to you.", "//dt[text()='Assignee']/following-sibling::dd[1][text()='You']");
        String conversation = fresh(By.cssSelector("section[aria-label='Conversation']"), WebElement::getText);
        assertTrue(conversation.indexOf("It was a gift") < conversation.indexOf("asking the carrier")
                && conversation.indexOf("asking the carrier") < conversation.indexOf("refund without"), conversation);
        assertTrue(conversation.contains("Internal note"), conversation);
        accessible("the ticket after the answer");
        chromium.shoot("support-02-ticket-answered");

        // The assignee is a choice of the workspace's members; one removed while the form is open is refused in
        // the API's words, next to the field, and nothing changes.
        UUID colleague = f.user();
        platform.jdbi().useHandle(h -> h.createUpdate("UPDATE lnp_core.users SET display_name = 'Bea Keller' WHERE id = :id")
                .bind("id", colleague).execute());
        press(By.linkText("Change status, priority or assignee"), Keys.ENTER);
        WebElement status = chromium.waitFor(By.id("f-status"));
        status.sendKeys("solved");                         // a select takes the typed option's text by keyboard
        WebElement assignee = browser.findElement(By.id("f-assignee_id"));
        assignee.sendKeys("Bea");
        platform.jdbi().useHandle(h -> h.createUpdate("DELETE FROM lnp_core.users WHERE id = :id")
                .bind("id", colleague).execute());
        tab(1).sendKeys(Keys.ENTER);                       // "Save"
        chromium.waitFor(By.xpath("//*[contains(text(), 'assignee_id does not name a user of this workspace')]"));
        accessible("the refused change");
        chromium.shoot("support-03-refused-assignee");
        assertEquals("high", f.get(ticket).get("priority").asText());
        assertEquals("new", f.get(ticket).get("status").asText(), "a refused change changes nothing");

        WebElement again = browser.findElement(By.id("f-assignee_id"));
        again.sendKeys("Nobody");
        tab(1).sendKeys(Keys.ENTER);
        shown("Ticket Parcel never arrived: status Solved, assigned to nobody.",
                "//dt[text()='Status']/following-sibling::dd[1][text()='Solved']");
        assertEquals("solved", f.get(ticket).get("status").asText());
        assertTrue(f.get(ticket).get("assignee_id").isNull());
        assertEquals(3, platform.get("/api/v1/issues/" + ticket + "/comments", f.key()).json().get("data").size());

        browser.get(base + "/app/support/tickets/new");
        chromium.waitFor(By.id("f-title"));
        accessible("the new ticket form");
    }

    /**
     * Focuses the element as Tab would and presses {@code keys} on it. A ticket's page refreshes itself when the
     * ticket changes (live view), possibly just after it loaded, so an element found a moment before may have been
     * replaced: it is then found anew.
     */
    private static void press(By locator, CharSequence... keys) {
        fresh(locator, element -> {
            ((org.openqa.selenium.JavascriptExecutor) browser).executeScript("arguments[0].focus();", element);
            element.sendKeys(keys);
            return null;
        });
    }

    /**
     * Waits for the notice of an action, or for what it changed: the page's live refresh after the change may
     * already have replaced the notice (shown once) by the time it is looked for.
     */
    private static void shown(String notice, String changed) {
        chromium.waitFor(By.xpath("//p[text()='" + notice + "'] | " + changed));
        fresh(By.xpath(changed), WebElement::isDisplayed);
    }

    private static <T> T fresh(By locator, java.util.function.Function<WebElement, T> use) {
        for (int attempt = 1; ; attempt++) {
            try {
                return use.apply(chromium.waitFor(locator));
            } catch (org.openqa.selenium.StaleElementReferenceException replaced) {
                if (attempt == 3) throw replaced;
            }
        }
    }

    /** Presses Tab {@code times} from the focused element and answers the element that has the focus then. */
    private static WebElement tab(int times) {
        for (int i = 0; i < times; i++) {
            browser.switchTo().activeElement().sendKeys(Keys.TAB);
        }
        return browser.switchTo().activeElement();
    }

    private static void accessible(String page) throws Exception {
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), page);
    }
}
