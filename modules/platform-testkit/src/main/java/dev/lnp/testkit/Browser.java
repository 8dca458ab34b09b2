package dev.lnp.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real headless Chromium for tests of the pages for people: Debian's {@code chromium} and {@code
 * chromium-driver} (no driver download at test time). Where they are missing the calling test is skipped with a
 * message saying what to install. Screenshots go to {@code target/console-screenshots}, or to the folder given in
 * {@code -Dlnp.console.screenshots=<dir>} (e.g. docs/console).
 *
 * <p>Selenium is an optional dependency of the testkit, so plugins that do not test pages do not get it: a test
 * that uses this class declares {@code org.seleniumhq.selenium:selenium-java} itself, in test scope.
 */
public final class Browser implements AutoCloseable {

    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    public static final String SCREENSHOTS_PROPERTY = "lnp.console.screenshots";

    private static final Dimension WINDOW = new Dimension(1280, 900);
    /** Full-page screenshots grow the window to the page, up to this height. */
    private static final int TALLEST_SCREENSHOT = 5000;
    private static final Duration WAIT = Duration.ofSeconds(15);

    private final WebDriver driver;
    private final Path screenshots;

    private Browser(WebDriver driver, Path screenshots) {
        this.driver = driver;
        this.screenshots = screenshots;
    }

    /**
     * Starts headless Chromium, or skips the calling test (a JUnit assumption) when Debian's chromium and
     * chromium-driver are not installed.
     */
    public static Browser start() throws IOException {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "SKIPPED: the browser tests need Debian's chromium and chromium-driver "
                        + "(apt-get install -y chromium chromium-driver); .ci/run installs them");
        Path screenshots = Path.of(System.getProperty(SCREENSHOTS_PROPERTY, "target/console-screenshots"));
        Files.createDirectories(screenshots);
        var options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--window-size=" + WINDOW.getWidth() + "," + WINDOW.getHeight());
        var service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).build();
        return new Browser(new ChromeDriver(service, options), screenshots);
    }

    /** The Selenium driver, for everything a test does on a page. */
    public WebDriver driver() {
        return driver;
    }

    /** Waits (up to 15 s) until the page has an element matching {@code locator}, and returns the first. */
    public WebElement waitFor(By locator) {
        return new WebDriverWait(driver, WAIT).until(d -> {
            var found = d.findElements(locator);
            return found.isEmpty() ? null : found.get(0);
        });
    }

    /** A screenshot of the whole page as {@code name}.png: the window grows to the page's height for it. */
    public void shoot(String name) throws IOException {
        long height = (Long) ((JavascriptExecutor) driver).executeScript(
                "return document.documentElement.scrollHeight + (window.outerHeight - window.innerHeight);");
        driver.manage().window().setSize(new Dimension(WINDOW.getWidth(),
                (int) Math.min(Math.max(height, WINDOW.getHeight()), TALLEST_SCREENSHOT)));
        try {
            Files.write(screenshots.resolve(name + ".png"), ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        } finally {
            driver.manage().window().setSize(WINDOW);
        }
    }

    /**
     * The serious and critical accessibility violations axe-core finds on the current page, one line each (rule, impact,
     * the first offending element). axe-core comes from npm ({@code npm install axe-core}); its {@code axe.min.js} is
     * named by the environment variable {@code LNP_AXE_CORE}. Without it the check is skipped with a message, except in
     * CI ({@code CI=true}), where {@code .ci/run} installs it and its absence fails the test.
     */
    @SuppressWarnings("unchecked")
    public List<String> seriousAccessibilityViolations() throws IOException {
        String location = System.getenv("LNP_AXE_CORE");
        if (location == null || !Files.isRegularFile(Path.of(location))) {
            if ("true".equals(System.getenv("CI"))) {
                throw new IllegalStateException("LNP_AXE_CORE names no axe.min.js (" + location + "); .ci/run installs it");
            }
            System.out.println("SKIPPED accessibility check: set LNP_AXE_CORE to axe-core's axe.min.js (npm install axe-core)");
            return List.of();
        }
        String axe = Files.readString(Path.of(location));
        // Evaluated by the driver, not as a page script, so the console's strict CSP does not refuse it.
        Object result = ((JavascriptExecutor) driver).executeAsyncScript(axe + "\n"
                + "const done = arguments[arguments.length - 1];"
                + "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations"
                + ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
                + ".map(v => v.id + ' (' + v.impact + '): ' + v.nodes[0].html)));");
        return (List<String>) result;
    }

    @Override
    public void close() {
        driver.quit();
    }
}
