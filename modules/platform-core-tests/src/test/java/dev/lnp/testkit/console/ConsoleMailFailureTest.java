package dev.lnp.testkit.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.Json;
import dev.lnp.testkit.OperatorCli;
import dev.lnp.testkit.TestPlatform;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The console while mail fails, in both ways it can: the SMTP server is unreachable (here a closed port, so every
 * attempt is refused and the outbox gives up after two), or the message cannot even be queued (here a trigger
 * refuses outbox rows for addresses starting with {@code undeliverable-}, as a full disk or a broken database
 * would). Invitations are all or nothing and can be resent; a sign-in request answers the same for every address.
 */
class ConsoleMailFailureTest {

    private static TestPlatform platform;

    @BeforeAll
    static void start() throws Exception {
        int closedPort;
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        platform = TestPlatform.start("console-mail-failure", List.of("probe"), null, Map.of(
                "lnp.mail.host", "127.0.0.1", "lnp.mail.port", String.valueOf(closedPort),
                "lnp.mail.security", "none", "lnp.mail.from", "platform@example.com",
                "lnp.mail.poll_interval_ms", "100", "lnp.mail.retry.immediate", "0",
                "lnp.mail.retry.first_delay_ms", "100", "lnp.mail.retry.max_attempts", "2"));
        platform.jdbi().useHandle(h -> {
            try (var statement = h.getConnection().createStatement()) {
                statement.execute("""
                        CREATE FUNCTION lnp_core.test_refuse_undeliverable() RETURNS trigger LANGUAGE plpgsql AS $$
                        BEGIN
                          IF NEW.recipient LIKE 'undeliverable-%' THEN
                            RAISE EXCEPTION 'the outbox cannot take mail for %', NEW.recipient;
                          END IF;
                          RETURN NEW;
                        END $$""");
                statement.execute("""
                        CREATE TRIGGER test_refuse_undeliverable BEFORE INSERT ON lnp_core.mail_messages
                        FOR EACH ROW EXECUTE FUNCTION lnp_core.test_refuse_undeliverable()""");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @AfterAll
    static void stop() {
        platform.close();
    }

    private static String address(String who) {
        return who + "-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
    }

    /** Signs in with a link from {@code platform user sign-in-link}: the mail cannot bring one here. */
    private static ConsoleClient signedIn(String email) {
        var result = OperatorCli.run(platform, "user", "sign-in-link", "--email", email, "--json");
        assertEquals(0, result.exit(), result.toString());
        String link = result.json().path("sign_in_link").asText();
        var client = new ConsoleClient(platform.port());
        var confirm = client.get(link.substring(link.indexOf("/console/")));
        var done = client.post("/console/sign-in/link", ConsoleClient.form("csrf", confirm.hidden("csrf"),
                "token", confirm.hidden("token")));
        assertEquals(303, done.status(), done.body());
        return client;
    }

    private static ConsoleClient owner(String email) {
        platform.workspaces().create("Mail " + email, email);
        return signedIn(email);
    }

    private static ConsoleClient.Page invite(ConsoleClient client, String email) {
        var page = client.get("/console/members");
        return client.post("/console/members", ConsoleClient.form("csrf", page.hidden("csrf"), "email", email,
                "role", "member"));
    }

    private static int count(String sql, String email) {
        return platform.jdbi().withHandle(h -> h.createQuery(sql).bind("e", email).mapTo(Integer.class).one());
    }

    private static int users(String email) {
        return count("SELECT count(*) FROM lnp_core.users WHERE lower(email) = lower(:e)", email);
    }

    private static int invitationMails(String email) {
        return count("SELECT count(*) FROM lnp_core.mail_messages WHERE recipient = :e AND kind = 'invitation'", email);
    }

    private static String awaitPage(ConsoleClient client, String path, String text) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        String body;
        do {
            body = client.get(path).body();
            if (body.contains(text)) {
                return body;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("no \"" + text + "\" on " + path + ":\n" + body);
    }

    @Test
    void anUndeliveredInvitationShowsOnTheMembersPageAndIsResentWithANewLink() throws Exception {
        var owner = owner(address("owner"));
        String invited = address("ada");
        var sent = invite(owner, invited);
        assertEquals(303, sent.status(), sent.body());
        assertEquals(1, users(invited));

        String members = awaitPage(owner, "/console/members", "invitation could not be delivered");
        assertTrue(members.contains("gave up after 2 attempts"), members);
        String userId = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT id::text FROM lnp_core.users WHERE email = :e").bind("e", invited).mapTo(String.class).one());
        assertTrue(members.contains("/console/members/" + userId + "/resend"), "a Resend button");

        var page = owner.get("/console/members");
        var resent = owner.post("/console/members/" + userId + "/resend", ConsoleClient.form("csrf",
                page.hidden("csrf")));
        assertEquals(303, resent.status(), resent.body());
        assertEquals("/console/members?done=resent", resent.location());
        assertEquals(2, invitationMails(invited), "a second invitation is queued");
        assertEquals(1, count("""
                SELECT count(*) FROM lnp_core.sign_in_links
                 WHERE email = :e AND purpose = 'invitation' AND expires_at > now()""", invited),
                "only the newest invitation link still works");
        assertTrue(owner.get("/console/members?done=resent").body().contains("A new invitation is on its way"));
        assertTrue(owner.get("/console/activity").body().contains("member.invitation_resent"));

        // Someone who has signed in asks for a sign-in link themselves; the JSON route says so too.
        String ownerId = platform.jdbi().withHandle(h -> h.createQuery("""
                SELECT u.id::text FROM lnp_core.users u JOIN lnp_core.console_sessions s ON s.user_id = u.id
                 WHERE u.workspace_id = (SELECT workspace_id FROM lnp_core.users WHERE email = :e) LIMIT 1""")
                .bind("e", invited).mapTo(String.class).one());
        page = owner.get("/console/members");
        var signedIn = owner.post("/console/members/" + ownerId + "/resend", ConsoleClient.form("csrf",
                page.hidden("csrf")));
        assertEquals(409, signedIn.status(), signedIn.body());
        assertTrue(signedIn.body().contains("has signed in already"), signedIn.body());
        String csrf = Json.parse(owner.json("GET", "/console/api/session", null, null).body()).path("data")
                .path("csrf_token").asText();
        var overJson = owner.json("POST", "/console/api/members/" + userId + "/resend-invitation", null, csrf);
        assertEquals(202, overJson.status(), overJson.body());
        assertEquals(3, invitationMails(invited));
    }

    @Test
    void anInvitationWhoseMailCannotBeQueuedAddsNobody() {
        var owner = owner(address("owner"));
        String invited = address("undeliverable");
        var refused = invite(owner, invited);
        assertEquals(503, refused.status(), refused.body());
        assertTrue(refused.body().contains("nobody was invited"), refused.body());
        assertEquals(0, users(invited), "the member was rolled back with the mail");
        assertFalse(owner.get("/console/activity").body().contains(invited), "no member.invited");

        // An address the mail service refuses is the form's error, naming the field.
        String international = "zo\u00eb-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        var unusable = invite(owner, international);
        assertEquals(400, unusable.status(), unusable.body());
        assertTrue(unusable.body().contains("E-mail: the platform cannot send mail to"), unusable.body());
        assertEquals(0, users(international));

        String csrf = Json.parse(owner.json("GET", "/console/api/session", null, null).body()).path("data")
                .path("csrf_token").asText();
        var overJson = owner.json("POST", "/console/api/members", "{\"email\":\"" + invited
                + "\",\"role\":\"member\"}", csrf);
        assertEquals(503, overJson.status(), overJson.body());
        assertEquals("mail_unavailable", Json.parse(overJson.body()).path("code").asText());
        assertEquals(0, users(invited));
    }

    /** The same page for an address with an account and one without, whichever way the mail fails. */
    @Test
    void aSignInRequestGetsTheSameAnswerForEveryAddressWhileMailFails() throws Exception {
        String unknown = address("nobody");
        String unknownAnswer = requestLink(unknown).replace(unknown, "ADDRESS");
        assertEquals(0, count("SELECT count(*) FROM lnp_core.mail_messages WHERE recipient = :e", unknown));

        for (String known : List.of(address("owner"), address("undeliverable"))) {
            platform.workspaces().create("Known " + known, known);
            assertEquals(unknownAnswer, requestLink(known).replace(known, "ADDRESS"), known);
        }
        // SMTP refused: the message waits in the outbox, which retries it.
        String queued = address("queued");
        platform.workspaces().create("Queued " + queued, queued);
        requestLink(queued);
        // The attempt is counted when it is claimed and its error recorded when it ends: wait for the error.
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (count("SELECT count(*) FROM lnp_core.mail_messages WHERE recipient = :e AND last_error IS NOT NULL",
                queued) == 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(1, count("""
                SELECT count(*) FROM lnp_core.mail_messages
                 WHERE recipient = :e AND kind = 'sign-in-link' AND attempts >= 1 AND last_error IS NOT NULL""", queued));
    }

    /**
     * A plugin's page for people (the probe's approval page) sends a link to any address it names, so it may say
     * that sending failed: a readable 503, or 400 for an address the mail service refuses, never a 500.
     */
    @Test
    void aPluginPagesSignInSaysWhenTheLinkCannotBeSent() {
        for (var expected : List.of(Map.entry(address("undeliverable"), 503),
                Map.entry("zo\u00eb-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com", 400))) {
            String path = "/api/probe/approve?for=" + java.net.URLEncoder.encode(expected.getKey(),
                    java.nio.charset.StandardCharsets.UTF_8);
            var client = new ConsoleClient(platform.port());
            var shown = client.get(path);
            assertEquals(200, shown.status(), shown.body());
            var sent = client.post(path, ConsoleClient.form("csrf", shown.hidden("csrf"), "do", "sign-in"));
            assertEquals(expected.getValue(), sent.status(), sent.body());
            assertTrue(sent.body().contains(expected.getValue() == 503 ? "The sign-in link could not be sent"
                    : "The platform cannot send mail to"), sent.body());
        }
    }

    private static String requestLink(String email) {
        var client = new ConsoleClient(platform.port());
        var form = client.get("/console/sign-in");
        var answer = client.post("/console/sign-in", ConsoleClient.form("csrf", form.hidden("csrf"), "email", email));
        assertEquals(200, answer.status(), email + ": " + answer.body());
        return answer.body();
    }
}
