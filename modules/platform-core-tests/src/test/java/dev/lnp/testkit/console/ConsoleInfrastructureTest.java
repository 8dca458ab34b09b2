package dev.lnp.testkit.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The console's shell: pages, bundled assets with long-lived caching, security headers, readable errors. */
@PlatformTest(plugins = "probe")
class ConsoleInfrastructureTest {

    @Test
    void theSignInPageIsServedWithItsLayoutAndSecurityHeaders(TestPlatform platform) {
        var client = new ConsoleClient(platform.port());
        var page = client.get("/console/sign-in");
        assertEquals(200, page.status(), page.body());
        assertTrue(page.header("Content-Type").startsWith("text/html"));
        assertEquals("no-store", page.header("Cache-Control"));
        assertTrue(page.header("Content-Security-Policy").contains("default-src 'none'"));
        assertEquals("nosniff", page.header("X-Content-Type-Options"));
        assertTrue(page.body().contains("<html lang=\"en\">"));
        assertTrue(page.body().contains("<label for=\"email\">"), "labelled field");
        assertTrue(page.body().contains("<main id=\"main\""), "main landmark");
        assertTrue(page.body().contains("class=\"skip\" href=\"#main\""), "skip link");
        String cookie = page.header("Set-Cookie");
        assertNotNull(cookie);
        assertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.matches(".*[Pp]ath=/(;.*)?"),
                cookie + " (Path=/ so that plugin pages for people see the session: docs/console.md)");
        assertTrue(!cookie.contains("Secure"), "plain http base URL: no Secure flag");
    }

    @Test
    void assetsAreVersionedAndCachedForAYear(TestPlatform platform) {
        var client = new ConsoleClient(platform.port());
        var page = client.get("/console/sign-in");
        var m = Pattern.compile("href=\"(/console/assets/[0-9a-f]{12}/console\\.css)\"").matcher(page.body());
        assertTrue(m.find(), page.body());
        var css = client.get(m.group(1));
        assertEquals(200, css.status());
        assertTrue(css.header("Content-Type").startsWith("text/css"));
        assertEquals("public, max-age=31536000, immutable", css.header("Cache-Control"));
        assertTrue(css.body().contains(":focus-visible"));
        assertEquals(404, client.get("/console/assets/000000000000/console.css").status(), "an old version is gone");
        assertEquals(404, client.get(m.group(1).replace("console.css", "secret.txt")).status());
    }

    @Test
    void pagesNeedASessionAndUnknownPagesAreReadable404s(TestPlatform platform) {
        var client = new ConsoleClient(platform.port());
        var page = client.get("/console/connections");
        assertEquals(303, page.status());
        assertEquals("/console/sign-in", page.location());
        var missing = client.get("/console/no-such-page");
        assertEquals(404, missing.status());
        assertTrue(missing.body().contains("Page not found"));
    }

    @Test
    void aFormPostFromAnotherOriginOrWithoutTheTokenIsRefused(TestPlatform platform) {
        var client = new ConsoleClient(platform.port());
        var page = client.get("/console/sign-in");
        String csrf = page.hidden("csrf");

        client.origin("http://evil.example");
        var foreign = client.post("/console/sign-in", ConsoleClient.form("csrf", csrf, "email", "a@example.com"));
        assertEquals(403, foreign.status());
        assertTrue(foreign.body().contains("was not sent from"), foreign.body());

        client.origin(null);
        assertEquals(403, client.post("/console/sign-in", ConsoleClient.form("csrf", csrf, "email", "a@example.com")).status(),
                "no Origin and no Referer");

        client.origin(client.base());
        var noToken = client.post("/console/sign-in", ConsoleClient.form("email", "a@example.com"));
        assertEquals(403, noToken.status());
        assertTrue(noToken.body().contains("expired or did not come from this console"));
        var wrongToken = client.post("/console/sign-in", ConsoleClient.form("csrf", "x" + csrf, "email", "a@example.com"));
        assertEquals(403, wrongToken.status());
    }

    @Test
    void aFormThatIsNotUrlEncodedIsAReadable400(TestPlatform platform) {
        var client = new ConsoleClient(platform.port());
        client.get("/console/sign-in");
        var page = client.postRaw("/console/sign-in", "%zz=1");
        assertEquals(400, page.status(), page.body());
        assertTrue(page.body().contains("not valid URL encoding"));
    }
}
