package dev.lnp.plugins.chatbot.widget;

import dev.lnp.testkit.Browser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.SearchContext;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The widget on a host page, as a visitor sees it: everything lives in the widget's shadow root. */
final class WidgetDriver {

    private final WebDriver driver;

    WidgetDriver(WebDriver driver) {
        this.driver = driver;
    }

    /** Waits until the loader reports {@code state} on its script tag (ready or unavailable). */
    void awaitState(String state, Duration timeout) {
        new WebDriverWait(driver, timeout).until(d -> state.equals(js(
                "var s = document.querySelector('script[data-key]'); return s && s.getAttribute('data-state');")));
    }

    boolean present() {
        return !driver.findElements(By.cssSelector("lnp-chat-widget")).isEmpty();
    }

    SearchContext root() {
        return driver.findElement(By.cssSelector("lnp-chat-widget")).getShadowRoot();
    }

    WebElement find(String css) {
        return root().findElement(By.cssSelector(css));
    }

    List<WebElement> all(String css) {
        return root().findElements(By.cssSelector(css));
    }

    WebElement launcher() {
        return find(".launcher");
    }

    WebElement panel() {
        return find(".panel");
    }

    WebElement input() {
        return find("textarea#input");
    }

    WebElement status() {
        return find(".status");
    }

    /** The id (or class) of the element focused inside the widget, or "outside" when focus left the widget. */
    String focused() {
        return (String) js("var h = document.querySelector('lnp-chat-widget');"
                + "if (document.activeElement !== h) return 'outside';"
                + "var a = h.shadowRoot.activeElement; return a ? (a.id || a.className) : 'none';");
    }

    /** Waits until a message bubble of {@code role} contains {@code text}; returns it. */
    WebElement awaitMessage(String role, String text) {
        return new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> all(".msg." + role).stream()
                .filter(m -> m.getText().contains(text)).findFirst().orElse(null));
    }

    /** Whether the whole of {@code message} is visible in the conversation's scrolled viewport. */
    boolean inView(WebElement message) {
        return (Boolean) js("var m = arguments[0].getBoundingClientRect();"
                + "var l = arguments[0].closest('[role=log]').getBoundingClientRect();"
                + "return m.top >= l.top - 1 && m.bottom <= l.bottom + 1;", message);
    }

    /** The open panel fills the page's width exactly (no overflow past the page's own scroll bar, if any). */
    boolean panelFillsTheWidth() {
        return (Boolean) js("var p = document.querySelector('lnp-chat-widget').shadowRoot.querySelector('.panel')"
                + ".getBoundingClientRect(); var w = document.documentElement.clientWidth;"
                + "return Math.abs(p.left) < 1 && Math.abs(p.right - w) < 1;");
    }

    void awaitStatus(String text) {
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> status().isDisplayed() && status().getText().contains(text));
    }

    /**
     * A screenshot of the window at its current size (Browser.shoot widens the window to 1280 px first, which would
     * defeat the narrow-screen shot), into the same folder as Browser's.
     */
    void shootAsIs(String name) throws IOException {
        Path folder = Path.of(System.getProperty(Browser.SCREENSHOTS_PROPERTY, "target/console-screenshots"));
        Files.createDirectories(folder);
        Files.write(folder.resolve(name + ".png"), ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
    }

    Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }
}
