package dev.lnp.testkit.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/** Behind an https base URL the console's cookies are Secure and only that origin may post its forms. */
@PlatformTest(plugins = "probe", config = "lnp.base.url=https://console.example.com")
class ConsoleHttpsBaseUrlTest {

    @Test
    void cookiesAreSecureAndTheOriginIsTheBaseUrls(TestPlatform platform) {
        var client = new ConsoleClient(platform.port());
        var page = client.get("/console/sign-in");
        assertEquals(200, page.status());
        String cookie = page.header("Set-Cookie");
        assertTrue(cookie.contains("Secure") && cookie.contains("HttpOnly"), cookie);

        var fromLocalhost = client.post("/console/sign-in", ConsoleClient.form("csrf", page.hidden("csrf"),
                "email", "a@example.com"));
        assertEquals(403, fromLocalhost.status(), "http://localhost is not the console's origin here");
    }
}
