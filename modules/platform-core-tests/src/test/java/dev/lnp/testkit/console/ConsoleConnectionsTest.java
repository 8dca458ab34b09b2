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

    /** Creates a connection and follows the redirect to the page that shows its key once. */
    private static ConsoleClient.Page issue(ConsoleClient client, Map<String, String> fields) {
        var created = create(client, fields);
        assertEquals(303, created.status(), created.body());
        assertTrue(created.location().matches("/console/connections/[0-9a-f-]{36}/new-key"), created.location());
        var shown = client.get(created.location());
        assertEquals(200, shown.status(), shown.body());
        return shown;
    }

    private static int connectionsNamed(UUID workspace, String name) {
        return (int) platform.connections().list(workspace).stream().filter(c -> c.name().equals(name)).count();
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
        var form = ConsoleClient.form("name", "Zapier", "scopes", "probe.read");
        var issued = issue(owner.client(), form);
        assertEquals("no-store", issued.header("Cache-Control"));
        String key = key(issued);
        String id = connectionId(issued);
        assertEquals(200, platform.get("/api/v1/probe/items", key).status());

        // Reloading the page after the redirect shows the key no more and creates nothing.
        var reloaded = owner.client().get("/console/connections/" + id + "/new-key");
        assertEquals(410, reloaded.status(), reloaded.body());
        assertFalse(reloaded.body().contains(key));
        assertTrue(reloaded.body().contains("The key was shown once"), reloaded.body());
        // The same form posted again (a browser re-sending it) is refused by its name, naming the field.
        var again = create(owner.client(), form);
        assertEquals(409, again.status(), again.body());
        assertTrue(again.body().contains("Name: this workspace already has a connection named Zapier"), again.body());
        var otherCase = create(owner.client(), ConsoleClient.form("name", " zapier ", "preset", "full-access"));
        assertEquals(409, otherCase.status(), otherCase.body());
        assertEquals(1, connectionsNamed(owner.workspaceId(), "Zapier"));

        var detail = owner.client().get("/console/connections/" + id);
        assertEquals(200, detail.status());
        assertFalse(detail.body().contains(key), "the key is never shown again");
        assertTrue(detail.body().contains(key.substring(0, 8)), "its prefix is");
        assertFalse(owner.client().get("/console/connections").body().contains(key));

        // A plain POST without the confirmation only asks; the key keeps working.
        var asked = owner.client().post("/console/connections/" + id + "/revoke",
                ConsoleClient.form("csrf", detail.hidden("csrf")));
        assertEquals(200, asked.status(), asked.body());
        assertTrue(asked.body().contains("Revoke Zapier?") && asked.body().contains("name=\"confirm\" value=\"yes\""),
                asked.body());
        assertEquals(200, platform.get("/api/v1/probe/items", key).status(), "not revoked without confirmation");
        var revoked = owner.client().post("/console/connections/" + id + "/revoke",
                ConsoleClient.form("csrf", asked.hidden("csrf"), "confirm", "yes"));
        assertEquals(303, revoked.status(), revoked.body());
        assertEquals(401, platform.get("/api/v1/probe/items", key).status());
        assertTrue(owner.client().get("/console/connections/" + id).body().contains("revoked"));
        // A revoked connection's name may be used again.
        assertEquals(200, issue(owner.client(), form).status());

        var activity = owner.client().get("/console/activity");
        assertEquals(200, activity.status());
        assertTrue(activity.body().contains("connection.created") && activity.body().contains("connection.revoked"));
        assertTrue(activity.body().contains(owner.email()));
    }

    @Test
    void rotationIssuesANewKeyAndEndsTheOldOneAfterTheGrace() {
        var owner = owner();
        var issued = issue(owner.client(), ConsoleClient.form("name", "CI", "preset", "read-only"));
        String oldKey = key(issued);
        String id = connectionId(issued);
        var detail = owner.client().get("/console/connections/" + id);
        var bad = owner.client().post("/console/connections/" + id + "/rotate",
                ConsoleClient.form("csrf", detail.hidden("csrf"), "grace_minutes", "-5"));
        assertEquals(400, bad.status());
        assertTrue(bad.body().contains("Grace period"));
        var rotatedPost = owner.client().post("/console/connections/" + id + "/rotate",
                ConsoleClient.form("csrf", detail.hidden("csrf"), "grace_minutes", "0"));
        assertEquals(303, rotatedPost.status(), rotatedPost.body());
        var rotated = owner.client().get(rotatedPost.location());
        assertEquals(200, rotated.status(), rotated.body());
        String newKey = key(rotated);
        assertEquals(200, platform.get("/api/v1/probe/items", newKey).status());
        assertEquals(401, platform.get("/api/v1/probe/items", oldKey).status());
        assertEquals(410, owner.client().get(rotatedPost.location()).status(), "a reload rotates nothing");
        assertEquals(2, platform.connections().list(owner.workspaceId()).get(0).keys().size());

        // The list tells the truth: the old key is retired (it gets 401), the new one active.
        var states = keyStates(owner.client().get("/console/connections/" + id).body());
        assertEquals(List.of("retired", "active"), states);

        // With a grace period the old key stays active until it ends, and says so.
        detail = owner.client().get("/console/connections/" + id);
        var graced = owner.client().post("/console/connections/" + id + "/rotate",
                ConsoleClient.form("csrf", detail.hidden("csrf"), "grace_minutes", "60"));
        assertEquals(303, graced.status(), graced.body());
        states = keyStates(owner.client().get("/console/connections/" + id).body());
        assertEquals(3, states.size(), states.toString());
        assertEquals("retired", states.get(0));
        assertTrue(states.get(1).startsWith("active until "), states.toString());
        assertEquals("active", states.get(2));
        assertEquals(200, platform.get("/api/v1/probe/items", newKey).status(), "in its grace period");
    }

    private static List<String> keyStates(String body) {
        var m = java.util.regex.Pattern.compile("<td class=\"key-state\">([^<]*)</td>").matcher(body);
        List<String> states = new java.util.ArrayList<>();
        while (m.find()) {
            states.add(m.group(1));
        }
        return states;
    }

    /** The sealed key opens only in the session that made it: another session of the same person sees nothing. */
    @Test
    void theKeyPageOpensOnlyInTheSessionThatMadeIt() {
        var owner = owner();
        var created = create(owner.client(), ConsoleClient.form("name", "Sealed", "preset", "read-only"));
        assertEquals(303, created.status(), created.body());
        String sealed = owner.client().cookie("lnp_once");
        assertTrue(sealed != null && !sealed.isEmpty(), "the key travels sealed in a short-lived cookie");
        var otherSession = new ConsoleClient(platform.port()).signIn(mail, owner.email());
        otherSession.setCookie("lnp_once", sealed);
        var elsewhere = otherSession.get(created.location());
        assertEquals(410, elsewhere.status(), elsewhere.body());
        assertFalse(elsewhere.body().contains("id=\"new-key\""), "no key in another session");
        var shown = owner.client().get(created.location());
        assertEquals(200, shown.status(), shown.body());
        assertTrue(key(shown).startsWith("lnp_"));
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
        var accepted = issue(owner.client(), ConsoleClient.form("name", "agent", "preset", "read-only",
                "delegation", "on", "delegated_user", ownUser, "tool_deny", "", "read_only_tools", "on"));
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
        var issued = issue(alice.client(), ConsoleClient.form("name", "Alice's", "scopes", "probe.read"));
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
