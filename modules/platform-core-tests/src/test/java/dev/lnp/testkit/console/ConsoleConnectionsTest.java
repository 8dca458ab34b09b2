package dev.lnp.testkit.console;

import dev.lnp.testkit.MailCatcher;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * API &amp; MCP → External Connections over real HTTP: the key shown once works on the API, rotation and
 * revocation take effect, bad input is a readable 400, and nothing is reachable across workspaces or roles.
 */
class ConsoleConnectionsTest {

    private static MailCatcher mail;
    private static TestPlatform platform;

    @BeforeAll
    static void start() {
        mail = new MailCatcher();
        platform = TestPlatform.start("console-connections", List.of("probe"), null, mail.platformConfig());
    }

    @AfterAll
    static void stop() {
        platform.close();
        mail.close();
    }

    private record Owner(String email, UUID workspaceId, ConsoleClient client) {
    }

    private static Owner owner() {
        String email = "owner-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        UUID workspace = platform.workspaces().create("Acme " + email, email).id();
        return new Owner(email, workspace, new ConsoleClient(platform.port()).signIn(mail, email));
    }

    private static ConsoleClient.Page create(ConsoleClient client, Map<String, String> fields) {
        var page = client.get("/console/connections");
        assertEquals(200, page.status(), page.body());
        var form = new java.util.LinkedHashMap<String, String>();
        form.put("csrf", page.hidden("csrf"));
        form.putAll(fields);
        return client.post("/console/connections", form);
    }

    private static String key(ConsoleClient.Page issued) {
        String key = issued.firstMatch("id=\"new-key\" type=\"text\" readonly value=\"(lnp_[A-Za-z0-9_-]+)\"");
        assertTrue(key != null, issued.body());
        return key;
    }

    private static String connectionId(ConsoleClient.Page issued) {
        return issued.firstMatch("href=\"/console/connections/([0-9a-f-]{36})\"");
    }

    @Test
    void aCreatedKeyIsShownOnceWorksAndStopsWhenRevoked() {
        var owner = owner();
        var issued = create(owner.client(), ConsoleClient.form("name", "Zapier", "scopes", "probe.read"));
        assertEquals(201, issued.status(), issued.body());
        assertEquals("no-store", issued.header("Cache-Control"));
        String key = key(issued);
        String id = connectionId(issued);
        assertEquals(200, platform.get("/api/v1/probe/items", key).status());

        var detail = owner.client().get("/console/connections/" + id);
        assertEquals(200, detail.status());
        assertFalse(detail.body().contains(key), "the key is never shown again");
        assertTrue(detail.body().contains(key.substring(0, 8)), "its prefix is");
        assertFalse(owner.client().get("/console/connections").body().contains(key));

        var revoked = owner.client().post("/console/connections/" + id + "/revoke",
                ConsoleClient.form("csrf", detail.hidden("csrf")));
        assertEquals(303, revoked.status(), revoked.body());
        assertEquals(401, platform.get("/api/v1/probe/items", key).status());
        assertTrue(owner.client().get("/console/connections/" + id).body().contains("revoked"));

        var activity = owner.client().get("/console/activity");
        assertEquals(200, activity.status());
        assertTrue(activity.body().contains("connection.created") && activity.body().contains("connection.revoked"));
        assertTrue(activity.body().contains(owner.email()));
    }

    @Test
    void rotationIssuesANewKeyAndEndsTheOldOneAfterTheGrace() {
        var owner = owner();
        var issued = create(owner.client(), ConsoleClient.form("name", "CI", "preset", "read-only"));
        String oldKey = key(issued);
        String id = connectionId(issued);
        var detail = owner.client().get("/console/connections/" + id);
        var bad = owner.client().post("/console/connections/" + id + "/rotate",
                ConsoleClient.form("csrf", detail.hidden("csrf"), "grace_minutes", "-5"));
        assertEquals(400, bad.status());
        assertTrue(bad.body().contains("Grace period"));
        var rotated = owner.client().post("/console/connections/" + id + "/rotate",
                ConsoleClient.form("csrf", detail.hidden("csrf"), "grace_minutes", "0"));
        assertEquals(201, rotated.status(), rotated.body());
        String newKey = key(rotated);
        assertEquals(200, platform.get("/api/v1/probe/items", newKey).status());
        assertEquals(401, platform.get("/api/v1/probe/items", oldKey).status());
    }

    @Test
    void badInputIsAReadable400AndCreatesNothing() {
        var owner = owner();
        var page = create(owner.client(), ConsoleClient.form("name", "", "preset", "read-only", "scopes", "probe.read",
                "expires_on", "2001-01-01", "tool_deny", "no_such_tool", "delegation", "on"));
        assertEquals(400, page.status());
        for (String field : List.of("Name:", "Access:", "Expires on:", "MCP tools:", "Delegation:")) {
            assertTrue(page.body().contains(field), field + " in\n" + page.body());
        }
        assertTrue(page.body().contains("no_such_tool"));
        var badDate = create(owner.client(), ConsoleClient.form("name", "x", "preset", "read-only", "expires_on", "soon"));
        assertEquals(400, badDate.status());
        assertTrue(badDate.body().contains("YYYY-MM-DD"));
        assertTrue(platform.connections().list(owner.workspaceId()).isEmpty());
    }

    @Test
    void delegationOnlyToAUserOfTheSameWorkspace() {
        var owner = owner();
        var other = owner();
        String foreignUser = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT id::text FROM lnp_core.users WHERE workspace_id = :ws").bind("ws", other.workspaceId())
                .mapTo(String.class).one());
        var refused = create(owner.client(), ConsoleClient.form("name", "agent", "preset", "read-only",
                "delegation", "on", "delegated_user", foreignUser));
        assertEquals(400, refused.status());
        String ownUser = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT id::text FROM lnp_core.users WHERE workspace_id = :ws").bind("ws", owner.workspaceId())
                .mapTo(String.class).one());
        var accepted = create(owner.client(), ConsoleClient.form("name", "agent", "preset", "read-only",
                "delegation", "on", "delegated_user", ownUser, "tool_deny", "", "read_only_tools", "on"));
        assertEquals(201, accepted.status(), accepted.body());
        var detail = owner.client().get("/console/connections/" + connectionId(accepted));
        assertTrue(detail.body().contains("Acts for " + owner.email()), detail.body());
        assertTrue(detail.body().contains("Read-only MCP tools only"));
    }

    @Test
    void theConnectionServiceRefusesADelegateFromAnotherWorkspace() {
        UUID mine = platform.workspaces().create("Mine", "mine-" + UUID.randomUUID() + "@example.com").id();
        var other = platform.workspaces().create("Theirs", "theirs-" + UUID.randomUUID() + "@example.com");
        UUID foreignUser = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT id FROM lnp_core.users WHERE workspace_id = :ws").bind("ws", other.id()).mapTo(UUID.class).one());
        var refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> platform.connections().create(new dev.lnp.core.auth.Connections.NewConnection(mine, "agent",
                        null, "read-only", null, foreignUser)));
        assertTrue(refused.getMessage().contains("is not a user of workspace"), refused.getMessage());
        assertTrue(platform.connections().list(mine).isEmpty());
    }

    @Test
    void anotherWorkspacesConnectionIsNotFound() {
        var alice = owner();
        var mallory = owner();
        var issued = create(alice.client(), ConsoleClient.form("name", "Alice's", "scopes", "probe.read"));
        String id = connectionId(issued);
        String key = key(issued);
        assertEquals(404, mallory.client().get("/console/connections/" + id).status());
        var page = mallory.client().get("/console/connections");
        assertEquals(404, mallory.client().post("/console/connections/" + id + "/revoke",
                ConsoleClient.form("csrf", page.hidden("csrf"))).status());
        assertEquals(404, mallory.client().post("/console/connections/" + id + "/rotate",
                ConsoleClient.form("csrf", page.hidden("csrf"), "grace_minutes", "0")).status());
        assertFalse(page.body().contains("Alice&#39;s") || page.body().contains("Alice's"));
        assertEquals(200, platform.get("/api/v1/probe/items", key).status(), "still active");
        assertEquals(404, alice.client().get("/console/connections/not-a-uuid").status());
    }

    @Test
    void aMemberCannotSeeOrChangeConnections() {
        var owner = owner();
        String memberEmail = "member-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        platform.workspaces().addUser(owner.workspaceId(), memberEmail, "member");
        var member = new ConsoleClient(platform.port()).signIn(mail, memberEmail);
        assertEquals(403, member.get("/console/connections").status());
        var sessions = member.get("/console/sessions");
        var attempt = member.post("/console/connections", ConsoleClient.form("csrf", sessions.hidden("csrf"),
                "name", "sneaky", "preset", "full-access"));
        assertEquals(403, attempt.status());
        assertEquals(403, member.get("/console/activity").status());
        assertTrue(platform.connections().list(owner.workspaceId()).isEmpty());
    }

    @Test
    void aCreateWithoutTheSessionsTokenIsRefused() {
        var owner = owner();
        owner.client().get("/console/connections");
        var forged = owner.client().post("/console/connections", ConsoleClient.form("name", "forged", "preset",
                "full-access"));
        assertEquals(403, forged.status());
        var otherSessionToken = owner().client().get("/console/connections").hidden("csrf");
        var crossed = owner.client().post("/console/connections", ConsoleClient.form("csrf", otherSessionToken,
                "name", "forged", "preset", "full-access"));
        assertEquals(403, crossed.status(), "a token of another session does not count");
        assertTrue(platform.connections().list(owner.workspaceId()).isEmpty());
    }
}
