package dev.lnp.testkit.mail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.mail.OutgoingMail;
import dev.lnp.api.internal.mail.Mailbox;
import dev.lnp.testkit.OperatorCli;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * With no SMTP server configured (the default), mail is kept in the database as the local mailbox, printed on
 * the server's standard output, and read with {@code platform mail list|show} and the {@link Mailbox} service.
 */
@PlatformTest(plugins = "probe")
class LocalMailboxTest {

    @Test
    void mailFromAPluginGoesToTheLocalMailboxAndIsPrintedOnStandardOutput(TestPlatform platform) {
        UUID ws = platform.createWorkspace("Local");
        String key = platform.key(ws, "probe.write");
        String to = "ada-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";

        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = System.out;
        TestResponse sent;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            sent = platform.post("/api/v1/probe/mail", key, Json.object().put("to", to).put("subject", "Sign in")
                    .put("text", "Open http://localhost/sign-in/abc to sign in.").toString());
        } finally {
            System.setOut(out);
        }
        assertEquals(201, sent.status(), sent.body());
        String id = sent.json().path("data").path("id").asText();
        assertTrue(sent.json().path("data").path("local_mailbox").asBoolean());
        String stdout = printed.toString(StandardCharsets.UTF_8);
        assertTrue(stdout.contains("----- LNP local mailbox: mail " + id + " (probe-mail) -----"), stdout);
        assertTrue(stdout.contains("To: " + to), stdout);
        assertTrue(stdout.contains("Open http://localhost/sign-in/abc to sign in."), stdout);
        assertTrue(stdout.contains("----- end of mail " + id), stdout);

        Mailbox mailbox = platform.platform().mail().mailbox();
        var listed = mailbox.list(new Mailbox.Query(to.toUpperCase(), null, 10));
        assertEquals(1, listed.size());
        assertEquals("local", listed.get(0).state());
        assertEquals(ws, listed.get(0).workspaceId());
        var shown = mailbox.show(UUID.fromString(id)).orElseThrow();
        assertEquals("Open http://localhost/sign-in/abc to sign in.", shown.text());
        assertTrue(shown.messageId().startsWith("<" + id), shown.messageId());
        assertTrue(mailbox.show(UUID.randomUUID()).isEmpty());
    }

    @Test
    void theCommandLineListsAndShowsLocalMail(TestPlatform platform) {
        var mailer = platform.platform().mail().mailer();
        assertTrue(mailer.localMailbox());
        String to = "cli-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        UUID first = mailer.send(new OutgoingMail(null, to, "Welcome", "First line\nhttp://localhost/x", null,
                "welcome"));
        UUID second = mailer.send(new OutgoingMail(null, to, "Both parts", "Plain words", "<p>Rich words</p>",
                "digest"));
        mailer.send(new OutgoingMail(null, "someone-else@example.com", "Other", "Not for the filter", null, "other"));

        var list = OperatorCli.run(platform, "mail", "list", "--to", to, "--json");
        assertEquals(0, list.exit(), list.err());
        JsonNode mails = list.json();
        assertEquals(2, mails.size(), list.out());
        assertEquals(second.toString(), mails.get(0).path("id").asText(), "newest first");
        assertEquals("local", mails.get(0).path("state").asText());
        assertEquals("digest", mails.get(0).path("kind").asText());
        assertTrue(mails.get(0).path("workspace_id").isNull());

        var table = OperatorCli.run(platform, "mail", "list", "--to", to);
        assertEquals(0, table.exit(), table.err());
        assertTrue(table.out().startsWith("ID "), "the table starts with its header row:\n" + table.out());
        assertTrue(table.out().contains(first.toString()) && table.out().contains("Welcome"), table.out());
        assertFalse(table.out().contains("Not for the filter"));

        var show = OperatorCli.run(platform, "mail", "show", first.toString());
        assertEquals(0, show.exit(), show.err());
        assertTrue(show.out().contains("Subject:    Welcome"), show.out());
        assertTrue(show.out().contains("First line\nhttp://localhost/x"), show.out());

        var html = OperatorCli.run(platform, "mail", "show", second.toString(), "--html");
        assertTrue(html.out().contains("<p>Rich words</p>"), html.out());
        var json = OperatorCli.run(platform, "mail", "show", second.toString(), "--json").json();
        assertEquals("Plain words", json.path("text").asText());
        assertEquals(to, json.path("to").asText());

        var none = OperatorCli.run(platform, "mail", "list", "--to", "nobody@example.com");
        assertEquals(0, none.exit());
        assertEquals("No mail to nobody@example.com.", none.out());
    }

    @Test
    void mailQueuedByAnOperatorCommandIsKeptButNotPrintedOnTheCommandsOwnOutput(TestPlatform platform) {
        var config = dev.lnp.core.config.PlatformConfig.load(null, java.util.Map.of(), java.util.Map.of());
        var mailer = dev.lnp.mail.PlatformMailer.queueOnly(config, platform.jdbi());
        assertTrue(mailer.localMailbox());
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = System.out;
        UUID id;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            id = mailer.send(new OutgoingMail(null, "op@example.com", "Sign in", "http://localhost/s/9", null,
                    "sign-in-link"));
        } finally {
            System.setOut(out);
        }
        assertFalse(printed.toString(StandardCharsets.UTF_8).contains(id.toString()), "--json output stays JSON");
        assertEquals("local", platform.platform().mail().mailbox().show(id).orElseThrow().summary().state());
    }

    @Test
    void theCommandLineRefusesBadInputWithOneLine(TestPlatform platform) {
        var unknown = OperatorCli.run(platform, "mail", "show", UUID.randomUUID().toString());
        assertEquals(1, unknown.exit());
        assertTrue(unknown.err().startsWith("error: no mail with id"), unknown.err());
        var notAnId = OperatorCli.run(platform, "mail", "show", "42");
        assertEquals(2, notAnId.exit());
        var badLimit = OperatorCli.run(platform, "mail", "list", "--limit", "0");
        assertEquals(1, badLimit.exit());
        assertTrue(badLimit.err().contains("limit must be between 1 and 500"), badLimit.err());
    }

    @Test
    void mailQueuedInARolledBackRequestIsNeverKept(TestPlatform platform) {
        UUID ws = platform.createWorkspace("Rollback");
        String key = platform.key(ws, "probe.write");
        String to = "rolled-back-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        var failed = platform.post("/api/v1/probe/mail", key, Json.object().put("to", to).put("subject", "Never")
                .put("text", "This change failed").put("fail", true).toString());
        assertEquals(409, failed.status(), failed.body());
        assertTrue(platform.platform().mail().mailbox().list(new Mailbox.Query(to, null, 10)).isEmpty());
    }

    @Test
    void deploymentMailFromAWorkspaceTransactionIsWrittenOnItsOwnAndOtherWorkspacesAreRefused(TestPlatform platform) {
        UUID ws = platform.createWorkspace("Scope");
        String key = platform.key(ws, "probe.write");
        String to = "deployment-" + UUID.randomUUID().toString().substring(0, 6) + "@example.com";
        var deployment = platform.post("/api/v1/probe/mail", key, Json.object().put("to", to).put("subject", "Ops")
                .put("text", "For the deployment").put("workspace", "none").toString());
        assertEquals(201, deployment.status(), deployment.body());
        var kept = platform.platform().mail().mailbox().list(new Mailbox.Query(to, null, 10));
        assertEquals(1, kept.size());
        assertNull(kept.get(0).workspaceId());

        var other = platform.post("/api/v1/probe/mail", key, Json.object().put("to", to).put("subject", "Leak")
                .put("text", "For another workspace").put("workspace", "other").toString());
        assertEquals(422, other.status(), other.body());
        assertTrue(other.body().contains("is not the workspace of the current transaction"), other.body());
    }

    @Test
    void headerInjectionAndMissingFieldsAreRefusedNamingTheField(TestPlatform platform) {
        var mailer = platform.platform().mail().mailer();
        String[][] cases = {
                {"ada@example.com", "Hello\r\nBcc: victim@example.com", "text", "subject must not contain a line break"},
                {"ada@example.com\nBcc: victim@example.com", "Hello", "text", "to must not contain a line break"},
                {"ada@example.com, eve@example.com", "Hello", "text", "to must be one plain"},
                {"Ada <ada@example.com>", "Hello", "text", "to must be one plain"},
                {"not-an-address", "Hello", "text", "to must be one plain"},
                {"", "Hello", "text", "to is required"},
                {"ada@example.com", " ", "text", "subject is required"},
                {"ada@example.com", "Hello", "", "text is required"},
        };
        int before = platform.platform().mail().mailbox().list(new Mailbox.Query(null, null, 500)).size();
        for (String[] c : cases) {
            var e = assertThrows(IllegalArgumentException.class,
                    () -> mailer.send(new OutgoingMail(null, c[0], c[1], c[2], null, "probe")));
            assertTrue(e.getMessage().startsWith(c[3]), c[3] + " <> " + e.getMessage());
        }
        var kind = assertThrows(IllegalArgumentException.class,
                () -> mailer.send(new OutgoingMail(null, "ada@example.com", "Hi", "text", null, "Bad Kind")));
        assertTrue(kind.getMessage().startsWith("kind must be"), kind.getMessage());
        UUID noSuchWorkspace = UUID.randomUUID();
        var workspace = assertThrows(IllegalArgumentException.class,
                () -> mailer.send(new OutgoingMail(noSuchWorkspace, "ada@example.com", "Hi", "text", null, "probe")));
        assertEquals("workspaceId " + noSuchWorkspace + " is not a workspace", workspace.getMessage());
        assertEquals(before, platform.platform().mail().mailbox().list(new Mailbox.Query(null, null, 500)).size(),
                "nothing refused was queued");

        UUID ws = platform.createWorkspace("Injection");
        var overHttp = platform.post("/api/v1/probe/mail", platform.key(ws, "probe.write"), Json.object()
                .put("to", "ada@example.com").put("subject", "Hi\nX-Evil: 1").put("text", "t").toString());
        assertEquals(422, overHttp.status(), overHttp.body());
        assertTrue(overHttp.body().contains("subject must not contain a line break"), overHttp.body());
    }
}
