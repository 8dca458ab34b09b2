package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.Browser;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.Select;

/**
 * The consent page in real headless Chromium, by keyboard: the person sees the client and where it returns, picks
 * the workspace, unchecks a permission, allows, and lands on the client's redirect URI with a code that the client
 * exchanges; then finds the client under Connected AI clients. axe-core checks the pages; the screenshots
 * (target/console-screenshots, or -Dlnp.console.screenshots=docs/console) are looked at.
 */
@PlatformTest(plugins = {"mcp", "crm"})
class McpOAuthConsentBrowserTest {

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
    void aPersonNarrowsAndAllowsOnTheConsentPageByKeyboard(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("Acme Robotics");
        TestPerson owner = platform.person(ws, "owner");
        owner.signIn(chromium);
        var client = new OAuthClientFixture(platform);

        browser.get(client.base() + client.authorizePath("scope", "mcp.use contacts.read contacts.write deals.read"));
        chromium.waitFor(By.xpath("//h1[text()='Connect Test assistant?']"));
        assertTrue(browser.getPageSource().contains("127.0.0.1:7777"), "the host it returns to is shown");
        new Select(browser.findElement(By.id("workspace"))).selectByVisibleText("Acme Robotics (you are owner)");
        accessible("the consent page");
        chromium.shoot("oauth-consent");

        var writeBox = browser.findElement(By.id("scope-contacts-write"));
        writeBox.sendKeys(Keys.SPACE);
        assertTrue(!writeBox.isSelected(), "space unchecks the permission");
        browser.findElement(By.cssSelector("button[value=allow]")).sendKeys(Keys.ENTER);
        // Nothing listens on the redirect URI: the browser's address shows where it was sent.
        new org.openqa.selenium.support.ui.WebDriverWait(browser, java.time.Duration.ofSeconds(15))
                .until(d -> d.getCurrentUrl().startsWith(OAuthClientFixture.REDIRECT));
        Map<String, String> back = OAuthClientFixture.params(browser.getCurrentUrl());
        assertEquals("state-123", back.get("state"));
        var tokens = client.exchange(back.get("code"));
        assertEquals(200, tokens.status(), tokens.body());
        assertEquals("mcp.use contacts.read deals.read", tokens.json().path("scope").asText());

        browser.get(client.base() + "/app/connected-clients");
        chromium.waitFor(By.linkText("Test assistant")).click();
        chromium.waitFor(By.xpath("//h1[text()='Test assistant']"));
        accessible("the connected client's page");
        chromium.shoot("oauth-connected-client");
    }

    private static void accessible(String what) throws Exception {
        List<String> violations = chromium.seriousAccessibilityViolations();
        assertTrue(violations.isEmpty(), what + ": " + violations);
    }
}
