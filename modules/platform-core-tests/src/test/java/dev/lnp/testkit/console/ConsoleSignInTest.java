package dev.lnp.testkit.console;

import dev.lnp.testkit.MailCatcher;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.TestPlatform;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Sign-in by e-mailed link over real HTTP, with the platform's real mail path delivering to a real SMTP server
 * (GreenMail): one-time links bound to the asking browser, no account enumeration, limits per address and IP,
 * sessions that are never fixed by the browser and end on sign-out.
 */
class ConsoleSignInTest {

    private static MailCatcher mail;
    private static TestPlatform platform;

    @BeforeAll
    static void start() {
        mail = new MailCatcher();
        var config = new HashMap<>(mail.platformConfig());
        config.put("lnp.console.sign_in.per_address", "3");
        platform = TestPlatform.start("console-sign-in", List.of("probe"), null, config);
    }

    @AfterAll
    static void stop() {
        platform.close();
        mail.close();
    }

    private static String newOwner() {
        String email = "owner-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        platform.workspaces().create("Acme " + email, email);
        return email;
    }

    /** Asks for a link in {@code client}'s browser and returns the link that arrived by mail. */
    private static String requestLink(ConsoleClient client, String email, int nth) {
        var form = client.get("/console/sign-in");
        var sent = client.post("/console/sign-in", ConsoleClient.form("csrf", form.hidden("csrf"), "email", email));
        assertEquals(200, sent.status(), sent.body());
        return mail.awaitLink(email, nth);
    }

    /** Opens the link (a page with a button) and presses the button. */
    private static ConsoleClient.Page useLink(ConsoleClient client, String link) {
        var confirm = client.get(link);
        assertEquals(200, confirm.status(), confirm.body());
        return client.post("/console/sign-in/link", ConsoleClient.form("csrf", confirm.hidden("csrf"),
                "token", confirm.hidden("token")));
    }

    @Test
    void theLinkFromTheMailSignsInThatBrowser() throws Exception {
        String email = newOwner();
        var client = new ConsoleClient(platform.port());
        String link = requestLink(client, email, 1);
        var message = mail.messagesTo(email).get(0);
        assertEquals("Your sign-in link", message.getSubject());
        assertTrue(MailCatcher.html(message).contains("href=\"" + link.replace("&", "&amp;") + "\""), "HTML part links too");

        var signedIn = useLink(client, link);
        assertEquals(303, signedIn.status(), signedIn.body());
        assertEquals("/console", signedIn.location());
        String cookie = signedIn.header("Set-Cookie");
        assertTrue(cookie.startsWith("lnp_console=") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
                cookie);
        var home = client.get("/console");
        assertEquals("/console/connections", home.location());
        var page = client.get("/console/connections");
        assertEquals(200, page.status());
        assertTrue(page.body().contains(email));
        // Only a hash of the session token is stored.
        String token = client.cookie("lnp_console");
        int hashed = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM lnp_core.console_sessions WHERE token_hash = sha256(convert_to(:t, 'UTF8'))")
                .bind("t", token).mapTo(Integer.class).one());
        assertEquals(1, hashed);
        int plain = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM lnp_core.console_sessions WHERE position(convert_to(:t, 'UTF8') IN token_hash) > 0")
                .bind("t", token).mapTo(Integer.class).one());
        assertEquals(0, plain);
    }

    @Test
    void anUnknownAddressGetsTheSameAnswerAndNoMail() {
        String known = newOwner();
        String unknown = "nobody-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        var client = new ConsoleClient(platform.port());
        var form = client.get("/console/sign-in");
        var forKnown = client.post("/console/sign-in", ConsoleClient.form("csrf", form.hidden("csrf"), "email", known));
        var forUnknown = client.post("/console/sign-in", ConsoleClient.form("csrf", form.hidden("csrf"), "email", unknown));
        assertEquals(forKnown.status(), forUnknown.status());
        assertEquals(forKnown.body().replace(known, "ADDRESS"), forUnknown.body().replace(unknown, "ADDRESS"));
        mail.awaitLink(known, 1);
        assertEquals(0, mail.messagesTo(unknown).size());
    }

    @Test
    void aLinkWorksOnceOnly() {
        String email = newOwner();
        var client = new ConsoleClient(platform.port());
        String link = requestLink(client, email, 1);
        assertEquals(303, useLink(client, link).status());
        var again = useLink(client, link);
        assertEquals(410, again.status());
        assertTrue(again.body().contains("already used"), again.body());
    }

    @Test
    void anExpiredLinkIsRefused() {
        String email = newOwner();
        var client = new ConsoleClient(platform.port());
        String link = requestLink(client, email, 1);
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.sign_in_links SET expires_at = now() - interval '1 second' WHERE email = ?", email));
        var late = useLink(client, link);
        assertEquals(410, late.status());
        assertTrue(late.body().contains("expired"));
        assertEquals(303, client.get("/console/connections").status(), "not signed in");
    }

    @Test
    void aLinkOpenedInAnotherBrowserDoesNotSignIn() {
        String email = newOwner();
        var asking = new ConsoleClient(platform.port());
        String link = requestLink(asking, email, 1);
        var other = new ConsoleClient(platform.port());
        var refused = useLink(other, link);
        assertEquals(403, refused.status());
        assertTrue(refused.body().contains("browser that asked"), refused.body());
        assertEquals(303, other.get("/console/connections").status());
        // The link is still good in the browser that asked for it.
        assertEquals(303, useLink(asking, link).status());
        assertEquals(200, asking.get("/console/connections").status());
    }

    @Test
    void linksLastAtMostFifteenMinutesAndAreStoredHashed() {
        String email = newOwner();
        var client = new ConsoleClient(platform.port());
        String link = requestLink(client, email, 1);
        String token = link.substring(link.indexOf("token=") + 6);
        var row = platform.jdbi().withHandle(h -> h.createQuery("""
                        SELECT extract(epoch FROM expires_at - created_at) AS seconds,
                               encode(token_hash, 'hex') AS hash FROM lnp_core.sign_in_links WHERE email = :e
                        """).bind("e", email).mapToMap().one());
        assertTrue(((Number) row.get("seconds")).doubleValue() <= 15 * 60, row.toString());
        assertTrue(!row.get("hash").toString().contains(token));
    }

    @Test
    void requestsPerAddressAreLimitedAlsoForUnknownAddresses() {
        String unknown = "limited-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        var client = new ConsoleClient(platform.port());
        var form = client.get("/console/sign-in");
        for (int i = 0; i < 3; i++) {
            assertEquals(200, client.post("/console/sign-in",
                    ConsoleClient.form("csrf", form.hidden("csrf"), "email", unknown)).status());
        }
        var limited = client.post("/console/sign-in", ConsoleClient.form("csrf", form.hidden("csrf"), "email",
                unknown.toUpperCase(java.util.Locale.ROOT)));
        assertEquals(429, limited.status());
        assertTrue(limited.body().contains("Too many sign-in requests"));
    }

    @Test
    void aSessionIdPlantedBeforeSignInIsNeverAdopted() {
        String email = newOwner();
        var client = new ConsoleClient(platform.port());
        client.setCookie("lnp_console", "planted-by-an-attacker-000000000000000000000");
        String link = requestLink(client, email, 1);
        var signedIn = useLink(client, link);
        assertEquals(303, signedIn.status());
        String setCookie = signedIn.header("Set-Cookie");
        assertNotNull(setCookie);
        String issued = setCookie.substring("lnp_console=".length(), setCookie.indexOf(';'));
        assertNotEquals("planted-by-an-attacker-000000000000000000000", issued);
        var fresh = new ConsoleClient(platform.port());
        fresh.setCookie("lnp_console", issued);
        assertEquals(200, fresh.get("/console/connections").status(), "the issued id is the session");
        var attacker = new ConsoleClient(platform.port());
        attacker.setCookie("lnp_console", "planted-by-an-attacker-000000000000000000000");
        assertEquals(303, attacker.get("/console/connections").status());
    }

    @Test
    void aPersonInSeveralWorkspacesChoosesOneAndTheSessionIdChanges() {
        String email = newOwner();
        var second = platform.workspaces().create("Second " + email, "someone-" + UUID.randomUUID() + "@example.com");
        platform.workspaces().addUser(second.id(), email, "member");
        var client = new ConsoleClient(platform.port());
        var signedIn = useLink(client, requestLink(client, email, 1));
        assertEquals("/console/workspaces", signedIn.location());
        String before = client.cookie("lnp_console");
        var choose = client.get("/console/workspaces");
        assertTrue(choose.body().contains("Second " + email));
        assertEquals(303, client.get("/console/connections").status(), "no workspace chosen yet");

        String memberUserId = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT id::text FROM lnp_core.users WHERE workspace_id = :ws AND email = :e")
                .bind("ws", second.id()).bind("e", email).mapTo(String.class).one());
        var entered = client.post("/console/workspaces", ConsoleClient.form("csrf", choose.hidden("csrf"),
                "user_id", memberUserId));
        assertEquals(303, entered.status(), entered.body());
        String after = client.cookie("lnp_console");
        assertNotEquals(before, after, "a new session id on the change of privilege");
        var old = new ConsoleClient(platform.port());
        old.setCookie("lnp_console", before);
        assertEquals(303, old.get("/console/sessions").status(), "the old id no longer works");

        // A member sees their sessions but not the connections page.
        assertEquals(200, client.get("/console/sessions").status());
        var denied = client.get("/console/connections");
        assertEquals(403, denied.status());
        assertTrue(!client.get("/console/sessions").body().contains("External connections"), "no link to it either");

        // A user id of someone else's membership is not accepted.
        String otherUser = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT id::text FROM lnp_core.users WHERE workspace_id = :ws AND email <> :e")
                .bind("ws", second.id()).bind("e", email).mapTo(String.class).one());
        var sessions = client.get("/console/sessions");
        assertEquals(404, client.post("/console/workspaces", ConsoleClient.form("csrf", sessions.hidden("csrf"),
                "user_id", otherUser)).status());
    }

    @Test
    void signingOutEndsTheSession() {
        String email = newOwner();
        var client = new ConsoleClient(platform.port());
        useLink(client, requestLink(client, email, 1));
        String token = client.cookie("lnp_console");
        var page = client.get("/console/connections");
        assertEquals(403, client.post("/console/sign-out", ConsoleClient.form()).status(), "sign-out needs the token");
        var out = client.post("/console/sign-out", ConsoleClient.form("csrf", page.hidden("csrf")));
        assertEquals(303, out.status());
        var replay = new ConsoleClient(platform.port());
        replay.setCookie("lnp_console", token);
        assertEquals(303, replay.get("/console/connections").status());
    }

    @Test
    void sessionsAreListedAndEndedByTheirOwnerOnly() {
        String email = newOwner();
        var laptop = new ConsoleClient(platform.port());
        useLink(laptop, requestLink(laptop, email, 1));
        var phone = new ConsoleClient(platform.port());
        useLink(phone, requestLink(phone, email, 2));

        var list = laptop.get("/console/sessions");
        assertEquals(200, list.status());
        String phoneSession = platform.jdbi().withHandle(h -> h.createQuery("""
                        SELECT id::text FROM lnp_core.console_sessions WHERE email = :e AND revoked_at IS NULL
                         ORDER BY created_at DESC LIMIT 1""").bind("e", email).mapTo(String.class).one());
        assertTrue(list.body().contains(phoneSession));

        String stranger = newOwner();
        var strangerClient = new ConsoleClient(platform.port());
        useLink(strangerClient, requestLink(strangerClient, stranger, 1));
        var strangerPage = strangerClient.get("/console/sessions");
        assertEquals(404, strangerClient.post("/console/sessions/" + phoneSession + "/end",
                ConsoleClient.form("csrf", strangerPage.hidden("csrf"))).status(), "not their session");
        assertEquals(200, phone.get("/console/sessions").status());

        assertEquals(303, laptop.post("/console/sessions/" + phoneSession + "/end",
                ConsoleClient.form("csrf", list.hidden("csrf"))).status());
        assertEquals(303, phone.get("/console/sessions").status(), "the phone is signed out");
        assertEquals(200, laptop.get("/console/sessions").status());
    }
}
