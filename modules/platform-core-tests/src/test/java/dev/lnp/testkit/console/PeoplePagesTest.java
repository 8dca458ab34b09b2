package dev.lnp.testkit.console;

import dev.lnp.testkit.MailCatcher;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.TestPlatform;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A plugin's page for people (the probe's {@code /api/probe/approve}, built with PeoplePages) over real HTTP, with
 * the sign-in link delivered by the platform's real mail path to a real SMTP server (GreenMail): not signed in, the
 * page offers a link; the link signs in even an address with no account and comes back to the page; another
 * address signed in is told so and can switch; CSRF, origin and open-redirect refusals are readable pages.
 */
class PeoplePagesTest {

    private static MailCatcher mail;
    private static TestPlatform platform;

    @BeforeAll
    static void start() {
        mail = new MailCatcher();
        var config = new HashMap<>(mail.platformConfig());
        config.put("lnp.console.sign_in.per_address", "3");
        platform = TestPlatform.start("people-pages", List.of("probe"), null, config);
    }

    @AfterAll
    static void stop() {
        platform.close();
        mail.close();
    }

    static String newAddress(String who) {
        return who + "-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
    }

    static String page(String email) {
        return "/api/probe/approve?for=" + URLEncoder.encode(email, StandardCharsets.UTF_8);
    }

    /** Presses the page's sign-in button, takes the link from the mail, presses the link page's button. */
    static ConsoleClient.Page signInThroughThePage(ConsoleClient client, String email) {
        int before = mail.messagesTo(email).size();
        var shown = client.get(page(email));
        var sent = client.post(page(email), ConsoleClient.form("csrf", shown.hidden("csrf"), "do", "sign-in"));
        assertEquals(200, sent.status(), sent.body());
        assertTrue(sent.body().contains("A sign-in link is on its way to " + email), sent.body());
        var confirm = client.get(mail.awaitLink(email, before + 1));
        assertEquals(200, confirm.status(), confirm.body());
        return client.post("/console/sign-in/link", ConsoleClient.form("csrf", confirm.hidden("csrf"),
                "token", confirm.hidden("token")));
    }

    @Test
    void notSignedInThePageOffersALinkThatSignsInANewAddressAndComesBack() throws Exception {
        String email = newAddress("newcomer");
        var client = new ConsoleClient(platform.port());
        var first = client.get(page(email));
        assertEquals(200, first.status(), first.body());
        assertTrue(first.header("Content-Type").startsWith("text/html"));
        assertTrue(first.header("Content-Security-Policy").contains("script-src 'self'"));
        assertEquals("no-store", first.header("Cache-Control"));
        assertTrue(first.body().contains("<link rel=\"stylesheet\" href=\"/console/assets/"), "the console's look");
        assertTrue(first.body().contains("This request is for <strong>" + email + "</strong>"), first.body());
        assertTrue(first.body().contains("E-mail me a sign-in link"));
        String browserCookie = first.header("Set-Cookie");
        assertTrue(browserCookie.startsWith("lnp_browser=") && browserCookie.contains("HttpOnly"), browserCookie);

        var signedIn = signInThroughThePage(client, email);
        assertEquals(303, signedIn.status(), signedIn.body());
        assertEquals(page(email), signedIn.location(), "back at the page");
        var message = mail.messagesTo(email).get(0);
        assertEquals("Your sign-in link", message.getSubject());

        var back = client.get(signedIn.location());
        assertEquals(200, back.status(), back.body());
        assertTrue(back.body().contains("Signed in as <strong>" + email + "</strong>"), back.body());
        assertTrue(back.body().contains("<span title=\"" + email + "\">" + email + "</span>"), "the layout shows who is signed in");
        var approved = client.post(page(email), ConsoleClient.form("csrf", back.hidden("csrf"), "do", "approve"));
        assertEquals(200, approved.status(), approved.body());
        assertTrue(approved.body().contains("You approved the request for " + email), approved.body());

        // The address has no account: the session has no workspace, and the console says so rather than failing.
        var console = client.get("/console/workspaces");
        assertEquals(200, console.status(), console.body());
        assertTrue(console.body().contains("but this address is not a user of any\nworkspace yet"), console.body());
        assertEquals("/console/workspaces", client.get("/console/connections").location());
    }

    @Test
    void anotherAddressSignedInIsToldSoAndCanSwitch() {
        String ada = newAddress("ada");
        String grace = newAddress("grace");
        var client = new ConsoleClient(platform.port());
        assertEquals(303, signInThroughThePage(client, ada).status());

        var wrong = client.get(page(grace));
        assertEquals(200, wrong.status());
        assertTrue(wrong.body().contains("You are signed in as <strong>" + ada + "</strong>, but this request is for <strong>"
                + grace + "</strong>"), wrong.body());
        assertTrue(wrong.body().contains("Sign in as " + grace + " instead"));
        // Answering as the wrong person is refused.
        var refused = client.post(page(grace), ConsoleClient.form("csrf", wrong.hidden("csrf"), "do", "approve"));
        assertEquals(403, refused.status(), refused.body());

        var switched = signInThroughThePage(client, grace);
        assertEquals(303, switched.status(), switched.body());
        assertEquals(page(grace), switched.location());
        assertTrue(client.get(page(grace)).body().contains("Signed in as <strong>" + grace + "</strong>"));
        assertTrue(client.get(page(ada)).body().contains("You are signed in as <strong>" + grace + "</strong>"),
                "the earlier session ended");
    }

    @Test
    void aFormWithoutTheTokenOrFromAnotherSiteIsRefusedWithAReadablePage() {
        String email = newAddress("csrf");
        var client = new ConsoleClient(platform.port());
        var shown = client.get(page(email));
        String token = shown.hidden("csrf");

        var missing = client.post(page(email), ConsoleClient.form("do", "sign-in"));
        assertEquals(403, missing.status(), missing.body());
        assertTrue(missing.header("Content-Type").startsWith("text/html"));
        assertTrue(missing.body().contains("<h1>Not allowed</h1>") && missing.body().contains("Reload the page"),
                missing.body());
        var wrong = client.post(page(email), ConsoleClient.form("csrf", token + "x", "do", "sign-in"));
        assertEquals(403, wrong.status());

        client.origin("http://evil.example");
        var foreign = client.post(page(email), ConsoleClient.form("csrf", token, "do", "sign-in"));
        assertEquals(403, foreign.status());
        assertTrue(foreign.body().contains("was not sent from"), foreign.body());

        // A browser without the pre-sign-in cookie has no token to send.
        var fresh = new ConsoleClient(platform.port());
        assertEquals(403, fresh.post(page(email), ConsoleClient.form("csrf", token, "do", "sign-in")).status());
        assertTrue(mail.messagesTo(email).isEmpty(), "no link was sent");

        client.origin(client.base());
        var json = client.postRaw(page(email), "{}");
        assertEquals(403, json.status(), "no token in that body");
    }

    @Test
    void theLinkReturnsOnlyToAPathOfThisSite() {
        String email = newAddress("redirect");
        var client = new ConsoleClient(platform.port());
        String token = client.get(page(email)).hidden("csrf");
        for (String target : List.of("//evil.example/x", "https://evil.example/", "/\\evil.example", "/ok\r\nSet-Cookie: a=b",
                "javascript:alert(1)", "evil.example", "", "/" + "a".repeat(2000))) {
            var refused = client.post(page(email), ConsoleClient.form("csrf", token, "do", "sign-in", "return", target));
            assertEquals(400, refused.status(), target + "\n" + refused.body());
            assertTrue(refused.body().contains("can only return to a page of this site"), refused.body());
        }
        assertTrue(mail.messagesTo(email).isEmpty(), "no link was sent for a foreign return path");
        var local = client.post(page(email), ConsoleClient.form("csrf", token, "do", "sign-in", "return",
                "/console/sessions?x=1"));
        assertEquals(200, local.status(), local.body());
        var confirm = client.get(mail.awaitLink(email, 1));
        var done = client.post("/console/sign-in/link", ConsoleClient.form("csrf", confirm.hidden("csrf"),
                "token", confirm.hidden("token")));
        assertEquals("/console/sessions?x=1", done.location());
    }

    @Test
    void signInsFromThePageCountAgainstTheConsolesLimits() {
        String email = newAddress("throttle");
        var client = new ConsoleClient(platform.port());
        String token = client.get(page(email)).hidden("csrf");
        for (int i = 0; i < 3; i++) {
            assertEquals(200, client.post(page(email), ConsoleClient.form("csrf", token, "do", "sign-in")).status());
        }
        var limited = client.post(page(email), ConsoleClient.form("csrf", token, "do", "sign-in"));
        assertEquals(429, limited.status(), limited.body());
        assertTrue(limited.body().contains("Too many sign-in requests"));
    }

    @Test
    void aBrowserWithCookiesFromBeforeTheyMovedToPathSlashStillSignsIn() {
        // Cookies were once Path=/console: such a browser sends the old one first on console pages.
        var client = new ConsoleClient(platform.port());
        client.setCookie("lnp_browser", "o".repeat(43));
        client.setCookie("lnp_console", "p".repeat(43));
        String email = newAddress("legacy");
        var signedIn = signInThroughThePage(client, email);
        assertEquals(303, signedIn.status(), "the current (Path=/) cookie wins: " + signedIn.body());
        assertTrue(signedIn.response().headers().allValues("Set-Cookie").stream()
                .anyMatch(c -> c.startsWith("lnp_console=;") && c.contains("Path=/console")), "the old one is expired");
        assertTrue(client.get(page(email)).body().contains("Signed in as <strong>" + email + "</strong>"));
    }

    @Test
    void answeringWithoutSigningInIsRefused() {
        String email = newAddress("anon");
        var client = new ConsoleClient(platform.port());
        String token = client.get(page(email)).hidden("csrf");
        var refused = client.post(page(email), ConsoleClient.form("csrf", token, "do", "approve"));
        assertEquals(403, refused.status());
        assertTrue(refused.body().contains("Sign in as " + email + " to answer this request."), refused.body());
        assertFalse(refused.body().contains("Approved"));
    }
}
