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
import org.openqa.selenium.support.ui.Select;

/**
 * Planning a cycle in real headless Chromium: create a project and a cycle, add a task to it, and move the task
 * across the cycle's board by keyboard. axe-core checks every page; the screenshots are looked at.
 */
@PlatformTest(plugins = {"projects", "issues"})
class TaskBoardBrowserTest {

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
    void aCycleIsPlannedAndATaskMovedOnItsBoard(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("Acme Robotics");
        platform.person(ws, "member").signIn(chromium);
        String base = "http://localhost:" + platform.port();

        browser.get(base + "/app/projects/projects/new");
        chromium.waitFor(By.id("f-name")).sendKeys("Website relaunch");
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        chromium.waitFor(By.xpath("//h1[text()='Website relaunch']"));
        chromium.waitFor(By.linkText("New cycle")).click();
        chromium.waitFor(By.id("f-name")).sendKeys("Sprint 1");
        browser.findElement(By.id("f-start_date")).sendKeys("12012026");
        browser.findElement(By.id("f-end_date")).sendKeys("12142026");
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        chromium.waitFor(By.xpath("//p[text()='Cycle Sprint 1 created.']"));
        accessible("the project's page");
        chromium.shoot("projects-01-project");

        browser.findElement(By.xpath("//main//a[text()='Task board']")).click();
        chromium.waitFor(By.xpath("//h1[text()='Task board']"));
        chromium.waitFor(By.linkText("New task")).click();
        chromium.waitFor(By.id("f-title")).sendKeys("Write the landing page");
        new Select(browser.findElement(By.id("f-priority"))).selectByValue("high");
        browser.findElement(By.cssSelector("main form button[type=submit]")).click();
        chromium.waitFor(By.xpath("//h1[text()='Write the landing page']"));
        accessible("the task's page");

        String project = platform.get("/api/v1/projects", platform.key(ws, "projects.read")).json()
                .path("data").path(0).path("id").asText();
        browser.get(base + "/app/projects/board?project_id=" + project);
        chromium.waitFor(By.xpath("//h1[text()='Task board']"));
        accessible("the task board");
        chromium.shoot("projects-02-board");
        WebElement card = browser.findElement(By.xpath("//li[.//a[text()='Write the landing page']]"));
        new Select(card.findElement(By.tagName("select"))).selectByValue("in_progress");
        card.findElement(By.cssSelector("button[type=submit]")).sendKeys(Keys.ENTER);
        chromium.waitFor(By.xpath("//p[text()='Task Write the landing page moved to In progress.']"));
        assertTrue(browser.findElement(By.cssSelector("section[data-lane='in_progress']")).getText()
                .contains("Write the landing page"));
        assertTrue(browser.getCurrentUrl().endsWith("/app/projects/board?project_id=" + project),
                "the board of the same project again: " + browser.getCurrentUrl());
        chromium.shoot("projects-03-board-moved");
    }

    private static void accessible(String page) throws Exception {
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), page);
    }
}
