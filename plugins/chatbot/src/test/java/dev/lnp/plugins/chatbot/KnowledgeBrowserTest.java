package dev.lnp.plugins.chatbot;

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
import org.openqa.selenium.WebDriver;

/**
 * The knowledge pages in real headless Chromium: an admin adds an article through the form, a form sent without its
 * text shows the error at the field, and axe-core finds nothing serious on the list, the form and the article. The
 * screenshots (target/console-screenshots, or -Dlnp.console.screenshots=docs/chatbot) are looked at.
 */
@PlatformTest(plugins = {"chatbot"})
class KnowledgeBrowserTest {

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
    void anAdminAddsAnArticleAndAFormWithoutTextSaysWhy(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("Acme Robotics");
        platform.person(ws, "admin").signIn(chromium);
        String base = "http://localhost:" + platform.port();

        browser.get(base + "/app/chat/knowledge/new");
        chromium.waitFor(By.xpath("//h1[text()='New article']"));
        browser.findElement(By.name("title")).sendKeys("Returns");
        browser.findElement(By.xpath("//button[normalize-space()='Add article']")).click();
        chromium.waitFor(By.cssSelector("[role=alert], .field-error, .error"));
        assertTrue(browser.getPageSource().contains("Text"), "the error names the field");
        accessible("the article form with its error");
        chromium.shoot("knowledge-01-form-error");

        browser.findElement(By.name("content")).sendKeys("Goods can be returned within 60 days of delivery.");
        browser.findElement(By.xpath("//button[normalize-space()='Add article']")).click();
        chromium.waitFor(By.xpath("//h1[text()='Returns']"));
        assertTrue(browser.getCurrentUrl().startsWith(base + "/app/chat/knowledge/"), browser.getCurrentUrl());
        accessible("the article's page");
        chromium.shoot("knowledge-02-article");

        browser.get(base + "/app/chat/knowledge");
        chromium.waitFor(By.xpath("//a[text()='Returns']"));
        accessible("the knowledge list");
        chromium.shoot("knowledge-03-list");
    }

    private static void accessible(String page) throws Exception {
        assertEquals(List.of(), chromium.seriousAccessibilityViolations(), page);
    }
}
