package dev.lnp.testkit.console;

import static dev.lnp.testkit.WebhookReceiver.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.Browser;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver.Reply;
import dev.lnp.testkit.WebhookReceiver;
import dev.lnp.web.console.ConsoleSessions;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The Webhooks pages in real headless Chromium (Debian's chromium and chromium-driver), driven by keyboard and
 * mouse as a person would: create a subscription (secret shown once), see the real dispatcher's attempts, send a
 * test, redeliver, read the catalog and the notices, rotate the secret, delete, and a member's refusal; axe-core
 * checks every page. Takes a screenshot of every page
 * (target/console-screenshots, or the folder in -Dlnp.console.screenshots, e.g. docs/console).
 */
class ConsoleWebhooksBrowserTest {

    private static TestPlatform platform;
    private static Browser chromium;
    private static WebDriver browser;

    @BeforeAll
    static void start() throws IOException {
        chromium = Browser.start();
        browser = chromium.driver();
        platform = TestPlatform.start("console-webhooks-browser", List.of("probe"), null, Map.of(
                "lnp.webhooks.allowed_networks", "127.0.0.0/8",
                "lnp.webhooks.request_timeout_ms", "1000",
                "lnp.webhooks.lease_seconds", "5",
                "lnp.webhooks.poll_interval_ms", "200"));
    }

    @AfterAll
    static void stop() {
        if (chromium != null) {
            chromium.close();
        }
        if (platform != null) {
            platform.close();
        }
    }

    /** Puts a console session of {@code email} (user {@code userId}) into the browser, as sign-in would. */
    private static void signInAs(String base, String email, UUID userId) {
        var issued = new ConsoleSessions(platform.jdbi(), Duration.ofHours(1)).create(email, userId, "chromium",
                "127.0.0.1");
        browser.get(base + "/console/sign-in");
        browser.manage().deleteAllCookies();
        browser.manage().addCookie(new Cookie.Builder("lnp_console", issued.token()).path("/console").isHttpOnly(true)
                .build());
    }

    private static UUID userId(UUID workspace, String email) {
        return platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT id FROM lnp_core.users WHERE workspace_id = :ws AND lower(email) = lower(:email)")
                .bind("ws", workspace).bind("email", email).mapTo(UUID.class).one());
    }

    /** A screenshot of the page, and no serious accessibility violation on it (axe-core). */
    private static void look(String name) throws IOException {
        chromium.shoot(name);
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), name);
    }

    private static void submit() {
        browser.findElement(By.cssSelector("form.card button[type=submit]")).click();
    }

    private static org.openqa.selenium.WebElement button(String label) {
        return browser.findElement(By.xpath("//button[normalize-space(text())='" + label + "']"));
    }

    /** The value a detail page shows for {@code label}. */
    private static String fact(String label) {
        return browser.findElement(By.xpath("//dt[text()='" + label + "']/following-sibling::dd[1]")).getText();
    }

    @Test
    void theWebhooksPagesInABrowser() throws Exception {
        String base = "http://localhost:" + platform.port();
        String email = "ada@example.com";
        UUID workspace = platform.workspaces().create("Acme Robotics", email).id();
        String key = platform.fullAccessKey(workspace);
        platform.workspaces().addUser(workspace, "grace@example.com", "member");
        var answer = new AtomicInteger(503);
        try (var receiver = new WebhookReceiver()) {
            // The test event always gets through; the others get what `answer` says.
            receiver.respond(r -> {
                int status = r.event().equals("webhooks.test") ? 200 : answer.get();
                return Reply.status(status).withBody(status == 200 ? "{\"ok\": true}"
                        : "{\"error\": \"maintenance window, try later\"}");
            });

            signInAs(base, email, userId(workspace, email));
            browser.get(base + "/console/webhooks");
            chromium.waitFor(By.xpath("//h1[text()='Webhooks']"));
            look("webhooks-01-empty");

            // A mistake first: the page names the field and keeps what was typed.
            browser.findElement(By.linkText("New subscription")).click();
            chromium.waitFor(By.xpath("//h1[text()='New subscription']"));
            browser.findElement(By.id("f-url")).sendKeys("http://10.0.0.5/hooks");
            browser.findElement(By.id("f-events")).sendKeys("probe.burst");
            submit();
            chromium.waitFor(By.id("errors"));
            assertTrue(browser.findElement(By.id("errors")).getText().contains("Receiver URL:"));
            // The field says it too, and the summary's entry leads to it.
            var refused = browser.findElement(By.id("f-url"));
            assertEquals("true", refused.getDomAttribute("aria-invalid"));
            assertEquals("f-url-note", refused.getDomAttribute("aria-describedby"));
            assertTrue(browser.findElement(By.cssSelector("#f-url-note .error")).getText().contains("10.0.0.5"));
            assertEquals("http://10.0.0.5/hooks", refused.getDomProperty("value"), "what was typed is kept");
            browser.findElement(By.cssSelector("#errors a[href='#f-url']")).click();
            assertEquals("f-url", browser.switchTo().activeElement().getDomAttribute("id"), "the link focuses the field");
            look("webhooks-02-refused-url");

            var url = browser.findElement(By.id("f-url"));
            url.clear();
            url.sendKeys(receiver.url("/crm-sync"));
            browser.findElement(By.id("f-events")).sendKeys("\nprobe.*");
            browser.findElement(By.id("f-description")).sendKeys("Sync to the CRM");
            submit();
            chromium.waitFor(By.id("once-value"));
            browser.findElement(By.id("copy-once")).click();
            new WebDriverWait(browser, Duration.ofSeconds(5))
                    .until(d -> !d.findElement(By.id("copy-status")).getText().isEmpty());
            look("webhooks-03-secret-once");
            String secret = browser.findElement(By.id("once-value")).getDomAttribute("value");
            assertTrue(secret.startsWith("whsec_"), secret);
            String subscriptionUrl = browser.getCurrentUrl();
            browser.navigate().refresh();
            chromium.waitFor(By.xpath("//dt[text()='State']"));
            assertTrue(browser.findElements(By.id("once-value")).isEmpty(), "shown once: a reload does not show it");

            // A refused edit: the page's summary links to the field, which says what is wrong.
            browser.findElement(By.linkText("Edit")).click();
            var editUrl = chromium.waitFor(By.id("f-url"));
            editUrl.clear();
            editUrl.sendKeys("ftp://example.com/hook");
            submit();
            chromium.waitFor(By.id("f-url-note"));
            assertTrue(browser.findElement(By.cssSelector("#errors a[href='#f-url']")).getText()
                    .startsWith("Receiver URL:"));
            look("webhooks-04a-edit-refused");
            browser.get(subscriptionUrl);
            chromium.waitFor(By.xpath("//dt[text()='State']"));

            // Real events through the real dispatcher: the receiver is down, then back.
            var published = platform.post("/api/v1/probe/events", key, "{\"count\": 2, \"event\": \"probe.burst\"}");
            assertEquals(201, published.status(), published.body());
            await(Duration.ofSeconds(15), "failed attempts", () -> receiver.received().size() >= 2);
            button("Send test event").click();
            chromium.waitFor(By.xpath("//h1[starts-with(text(), 'Delivery of')]"));
            await(Duration.ofSeconds(15), "the test delivery", () -> receiver.received().stream()
                    .anyMatch(r -> r.event().equals("webhooks.test")));
            await(Duration.ofSeconds(15), "its attempt on the page", () -> {
                browser.navigate().refresh();
                return fact("Status").contains("delivered");
            });
            look("webhooks-05-test-delivery");

            browser.get(subscriptionUrl);
            chromium.waitFor(By.xpath("//h2[starts-with(text(), 'Recent deliveries')]"));
            look("webhooks-04-subscription");
            // A probe.burst delivery still retrying against the failing receiver, with its attempts.
            browser.get(subscriptionUrl + "/deliveries?status=pending");
            chromium.waitFor(By.id("filter-status"));
            look("webhooks-06a-deliveries");
            browser.findElement(By.cssSelector("table a[href*='/deliveries/']")).click();
            chromium.waitFor(By.xpath("//h1[starts-with(text(), 'Delivery of')]"));
            look("webhooks-06-delivery-attempts");
            answer.set(200);
            button("Redeliver").click();
            chromium.waitFor(By.cssSelector(".card.done"));
            await(Duration.ofSeconds(15), "the redelivery on the page", () -> {
                browser.navigate().refresh();
                return fact("Status").contains("delivered");
            });
            look("webhooks-07-redelivered");

            browser.get(base + "/console/webhooks");
            chromium.waitFor(By.xpath("//h1[text()='Webhooks']"));
            look("webhooks-08-list");

            browser.findElement(By.linkText("Event catalog")).click();
            chromium.waitFor(By.xpath("//h1[text()='Event catalog']"));
            look("webhooks-09-catalog");

            // A receiver failing for days is switched off with a notice (the dispatcher's own rule).
            answer.set(410);
            UUID subscription = UUID.fromString(subscriptionUrl.substring(subscriptionUrl.lastIndexOf('/') + 1));
            platform.jdbi().useHandle(h -> h.createUpdate(
                            "UPDATE lnp_core.webhook_subscriptions SET failing_since = now() - interval '6 days' WHERE id = :id")
                    .bind("id", subscription).execute());
            platform.post("/api/v1/probe/events", key, "{\"count\": 1, \"event\": \"probe.other\"}");
            await(Duration.ofSeconds(15), "the switch-off", () -> platform.get(
                    "/api/v1/webhooks/subscriptions/" + subscription, key).data().path("enabled").asBoolean() == false);
            browser.get(base + "/console/webhooks/notices");
            chromium.waitFor(By.xpath("//h1[text()='Webhook notices']"));
            look("webhooks-10-notices");
            browser.get(subscriptionUrl);
            chromium.waitFor(By.xpath("//dt[text()='State']"));
            assertTrue(fact("State").startsWith("off"), fact("State"));
            look("webhooks-11-switched-off");

            // A new secret on rotation, shown once like the first.
            button("Issue a new signing secret").click();
            chromium.waitFor(By.id("once-value"));
            assertTrue(browser.findElement(By.id("shown-once")).getText().contains("The previous secret keeps signing"));
            look("webhooks-11b-secret-rotated");

            // Deleting asks for the tick first; the browser does not post without it.
            button("Delete subscription").click();
            assertEquals(subscriptionUrl, browser.getCurrentUrl(), "not posted without the tick");
            browser.findElement(By.cssSelector("form[action$='/delete'] input[name=confirm]")).click();
            button("Delete subscription").click();
            chromium.waitFor(By.xpath("//h1[text()='Webhooks']"));
            assertTrue(browser.findElement(By.cssSelector(".card.done")).getText().contains("were deleted"));
            look("webhooks-13-deleted");

            signInAs(base, "grace@example.com", userId(workspace, "grace@example.com"));
            browser.get(base + "/console/webhooks");
            chromium.waitFor(By.xpath("//h1[text()='Not allowed']"));
            assertTrue(browser.findElements(By.cssSelector("nav a[href='/console/webhooks']")).isEmpty(),
                    "no Webhooks entry for a member");
            look("webhooks-12-member-refused");
        }
    }
}
