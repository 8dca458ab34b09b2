package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.Browser;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
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
 * Working through tasks in real headless Chromium with the keyboard only: tick two tasks on the list and change their
 * status together, see a refused change in words, add a sub-task from its parent's page and comment on it, and read
 * the capacity view with an overbooked week. axe-core checks every page; the screenshots are looked at.
 */
@PlatformTest(plugins = {"projects", "issues"})
class TaskListBrowserTest {

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
    void tasksAreChangedTogetherAndASubTaskAddedByKeyboard(TestPlatform platform) throws Exception {
        Fixtures f = Fixtures.workspace(platform, "Acme Robotics");
        UUID project = f.project("Manual");
        f.cycle(project);
        f.label("Docs");
        UUID write = f.issue("{\"kind\": \"task\", \"title\": \"Write the manual\", \"priority\": \"high\", "
                + "\"project_id\": \"" + project + "\"}");
        f.issue("{\"kind\": \"task\", \"title\": \"Print the manual\", \"project_id\": \"" + project + "\"}");
        f.task("Tidy the desk");
        TestPerson member = platform.person(f.ws(), "member");
        member.signIn(chromium);
        String base = "http://localhost:" + platform.port();

        browser.get(base + "/app/projects/tasks?sort=title");
        chromium.waitFor(By.xpath("//h1[text()='Tasks']"));
        chromium.waitFor(By.cssSelector("input[aria-label='Select Print the manual']")).sendKeys(Keys.SPACE);
        browser.findElement(By.cssSelector("input[aria-label='Select Write the manual']")).sendKeys(Keys.SPACE);
        browser.findElement(By.id("f-status")).sendKeys("In progress");
        accessible("the task list with its change form");
        chromium.shoot("projects-04-bulk-ticked");
        browser.findElement(By.xpath("//button[text()='Apply to ticked tasks']")).sendKeys(Keys.ENTER);
        chromium.waitFor(By.xpath("//p[text()='2 tasks changed (status In progress): “Print the manual”, "
                + "“Write the manual”.']"));
        assertEquals("in_progress", f.get(write).path("status").asText());
        assertTrue(browser.getCurrentUrl().endsWith("/app/projects/tasks?sort=title"), browser.getCurrentUrl());
        chromium.shoot("projects-05-bulk-changed");

        // The list follows task events: the change just made may refresh it once more, so keys go to the list as it is.
        type(By.cssSelector("input[aria-label='Select Tidy the desk']"), Keys.SPACE);
        type(By.id("f-cycle"), "Manual: Sprint");
        type(By.xpath("//button[text()='Apply to ticked tasks']"), Keys.ENTER);
        chromium.waitFor(By.xpath("//*[contains(text(), 'the cycle belongs to another project than task “Tidy the desk”')]"));
        accessible("a refused change");
        chromium.shoot("projects-06-bulk-refused");

        browser.get(base + "/app/projects/tasks/" + write);
        chromium.waitFor(By.linkText("New sub-task")).sendKeys(Keys.ENTER);
        chromium.waitFor(By.id("f-title")).sendKeys("Index chapter");
        browser.findElement(By.id("f-title")).sendKeys(Keys.ENTER);
        chromium.waitFor(By.xpath("//h1[text()='Index chapter']"));
        WebElement parent = chromium.waitFor(By.xpath("//section[@aria-label='Parent task']//a[text()='Write the manual']"));
        // The comment is written on the task's own page, under its comments.
        chromium.waitFor(By.id("form1-body")).sendKeys("Alphabetical, with page numbers");
        browser.findElement(By.xpath("//button[text()='Add comment']")).sendKeys(Keys.ENTER);
        chromium.waitFor(By.xpath("//p[text()='Comment added to Index chapter.']"));
        accessible("a sub-task's page");
        chromium.shoot("projects-07-sub-task");
        browser.findElement(By.xpath("//section[@aria-label='Parent task']//a[text()='Write the manual']"))
                .sendKeys(Keys.ENTER);
        chromium.waitFor(By.xpath("//h1[text()='Write the manual']"));
        chromium.waitFor(By.xpath("//section[@aria-label='Sub-tasks']//a[text()='Index chapter']"));
        chromium.waitFor(By.linkText("Edit")).sendKeys(Keys.ENTER);
        chromium.waitFor(By.id("f-title"));
        accessible("the task's edit form");
        chromium.shoot("projects-08-task-edit");

        UUID me = platform.jdbi().withHandle(h -> h.createQuery("SELECT id FROM lnp_core.users WHERE email = :e")
                .bind("e", member.email()).mapTo(UUID.class).one());
        for (String amount : List.of("\"hours_per_day\": 6", "\"percentage\": 50")) {
            var created = platform.post("/api/v1/planning/allocations", f.key(), "{\"user_id\": \"" + me
                    + "\", \"project_id\": \"" + project + "\", \"start_date\": \"2025-01-06\", \"end_date\": "
                    + "\"2025-01-10\", " + amount + "}");
            assertEquals(201, created.status(), created.body());
        }
        browser.get(base + "/app/projects/capacity?from=2025-01-06");
        chromium.waitFor(By.xpath("//td[text()='⚠ Overbooked by 10 h']"));
        accessible("the capacity view");
        chromium.shoot("projects-09-capacity");
        assertTrue(parent != null);
    }

    /** Keys for the element {@code locator} finds, found anew when a live refresh replaced it meanwhile. */
    private static void type(By locator, CharSequence keys) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                chromium.waitFor(locator).sendKeys(keys);
                return;
            } catch (org.openqa.selenium.StaleElementReferenceException
                     | org.openqa.selenium.ElementNotInteractableException replaced) {
                if (attempt == 5) throw replaced;
                Thread.sleep(200);
            }
        }
    }

    private static void accessible(String page) throws Exception {
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), page);
    }
}
