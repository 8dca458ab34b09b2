package dev.lnp.testkit.console;

import dev.lnp.testkit.MailCatcher;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.OperatorCli;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Members over real HTTP with real mail: invite (the invitation is a one-time link into the workspace), change
 * role, remove, transfer ownership (owner only, always exactly one owner), role rules, other workspaces' ids,
 * and the users read API.
 */
class ConsoleMembersTest {

    private static MailCatcher mail;
    private static TestPlatform platform;

    @BeforeAll
    static void start() {
        mail = new MailCatcher();
        platform = TestPlatform.start("console-members", List.of("probe"), null, mail.platformConfig());
    }

    @AfterAll
    static void stop() {
        platform.close();
        mail.close();
    }

    private record Owner(String email, UUID workspaceId, ConsoleClient client) {
    }

    private static String address(String who) {
        return who + "-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
    }

    private static Owner owner() {
        String email = address("owner");
        UUID workspace = platform.workspaces().create("Acme " + email, email).id();
        return new Owner(email, workspace, new ConsoleClient(platform.port()).signIn(mail, email));
    }

    private static String userId(UUID workspace, String email) {
        return platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT id::text FROM lnp_core.users WHERE workspace_id = :ws AND email = :e")
                .bind("ws", workspace).bind("e", email).mapTo(String.class).one());
    }

    private static String role(UUID workspace, String email) {
        return platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT role FROM lnp_core.users WHERE workspace_id = :ws AND email = :e")
                .bind("ws", workspace).bind("e", email).mapTo(String.class).findOne().orElse(null));
    }

    private static ConsoleClient.Page invite(Owner owner, String email, String role) {
        var page = owner.client().get("/console/members");
        return owner.client().post("/console/members", ConsoleClient.form("csrf", page.hidden("csrf"),
                "email", email, "role", role));
    }

    private static ConsoleClient.Page post(ConsoleClient client, String path, String... fields) {
        var page = client.get("/console/members");
        String[] all = new String[fields.length + 2];
        all[0] = "csrf";
        all[1] = page.hidden("csrf");
        System.arraycopy(fields, 0, all, 2, fields.length);
        return client.post(path, ConsoleClient.form(all));
    }

    @Test
    void anInvitationIsAOneTimeLinkIntoTheWorkspace() {
        var owner = owner();
        String invited = address("invited");
        var sent = invite(owner, invited, "admin");
        assertEquals(303, sent.status(), sent.body());
        assertEquals("admin", role(owner.workspaceId(), invited));
        String link = mail.awaitLink(invited, 1);
        try {
            assertTrue(mail.messagesTo(invited).get(0).getSubject().contains("You are invited to Acme"));
        } catch (jakarta.mail.MessagingException e) {
            throw new AssertionError(e);
        }

        // The invited person opens it in their own browser (it is not bound to the inviter's).
        var browser = new ConsoleClient(platform.port());
        var confirm = browser.get(link);
        var signedIn = browser.post("/console/sign-in/link", ConsoleClient.form("csrf", confirm.hidden("csrf"),
                "token", confirm.hidden("token")));
        assertEquals(303, signedIn.status(), signedIn.body());
        assertEquals("/console", signedIn.location());
        assertEquals(200, browser.get("/console/connections").status(), "an admin sees connections");
        var again = new ConsoleClient(platform.port());
        var confirmAgain = again.get(link);
        assertEquals(410, again.post("/console/sign-in/link", ConsoleClient.form("csrf", confirmAgain.hidden("csrf"),
                "token", confirmAgain.hidden("token"))).status());

        var duplicate = invite(owner, invited.toUpperCase(java.util.Locale.ROOT), "member");
        assertEquals(409, duplicate.status());
        assertTrue(duplicate.body().contains("already a member"));
        var bad = invite(owner, "not-an-address", "member");
        assertEquals(400, bad.status());
        assertTrue(bad.body().contains("E-mail:"));
        var badRole = invite(owner, address("x"), "owner");
        assertEquals(400, badRole.status());
        assertTrue(badRole.body().contains("Role:"));
        var activity = owner.client().get("/console/activity").body();
        assertTrue(activity.contains("member.invited") && activity.contains(invited));
    }

    @Test
    void rolesChangeAndMembersAreRemovedButNeverTheOwner() {
        var owner = owner();
        String member = address("member");
        platform.workspaces().addUser(owner.workspaceId(), member, "member");
        var memberClient = new ConsoleClient(platform.port()).signIn(mail, member);
        assertEquals(403, memberClient.get("/console/connections").status());

        String memberId = userId(owner.workspaceId(), member);
        assertEquals(303, post(owner.client(), "/console/members/" + memberId + "/role", "role", "admin").status());
        assertEquals("admin", role(owner.workspaceId(), member));
        assertEquals(303, memberClient.get("/console/connections").status(), "their old session ended");

        String ownerId = userId(owner.workspaceId(), owner.email());
        var demoteOwner = post(owner.client(), "/console/members/" + ownerId + "/role", "role", "member");
        assertEquals(409, demoteOwner.status());
        assertTrue(demoteOwner.body().contains("transferring ownership"));
        assertEquals(409, post(owner.client(), "/console/members/" + ownerId + "/remove").status());

        assertEquals(303, post(owner.client(), "/console/members/" + memberId + "/remove").status());
        assertEquals(null, role(owner.workspaceId(), member));
        assertEquals(404, post(owner.client(), "/console/members/" + memberId + "/remove").status());
    }

    @Test
    void aMemberMayLookButNotChange() {
        var owner = owner();
        String member = address("member");
        platform.workspaces().addUser(owner.workspaceId(), member, "member");
        String other = address("other");
        platform.workspaces().addUser(owner.workspaceId(), other, "member");
        var client = new ConsoleClient(platform.port()).signIn(mail, member);
        var page = client.get("/console/members");
        assertEquals(200, page.status());
        assertTrue(page.body().contains(owner.email()));
        assertFalse(page.body().contains("Send invitation"));
        String otherId = userId(owner.workspaceId(), other);
        assertEquals(403, post(client, "/console/members", "email", address("z"), "role", "admin").status());
        assertEquals(403, post(client, "/console/members/" + otherId + "/role", "role", "admin").status());
        assertEquals(403, post(client, "/console/members/" + otherId + "/remove").status());
        assertEquals(403, post(client, "/console/members/" + otherId + "/transfer").status());
        assertEquals("member", role(owner.workspaceId(), other));
    }

    @Test
    void onlyTheOwnerTransfersOwnershipAndThereIsAlwaysOneOwner() {
        var owner = owner();
        String admin = address("admin");
        platform.workspaces().addUser(owner.workspaceId(), admin, "admin");
        var adminClient = new ConsoleClient(platform.port()).signIn(mail, admin);
        String adminId = userId(owner.workspaceId(), admin);
        assertEquals(403, post(adminClient, "/console/members/" + adminId + "/transfer").status(),
                "an admin cannot take ownership");

        String before = owner.client().cookie("lnp_console");
        var moved = post(owner.client(), "/console/members/" + adminId + "/transfer");
        assertEquals(303, moved.status(), moved.body());
        assertEquals("owner", role(owner.workspaceId(), admin));
        assertEquals("admin", role(owner.workspaceId(), owner.email()));
        assertNotEquals(before, owner.client().cookie("lnp_console"), "the former owner's session id is renewed");
        int owners = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM lnp_core.users WHERE workspace_id = :ws AND role = 'owner'")
                .bind("ws", owner.workspaceId()).mapTo(Integer.class).one());
        assertEquals(1, owners);
        assertEquals(admin, platform.workspaces().find(owner.workspaceId()).orElseThrow().ownerEmail());
        String formerOwnerId = userId(owner.workspaceId(), owner.email());
        assertEquals(403, post(owner.client(), "/console/members/" + formerOwnerId + "/transfer").status(),
                "the former owner is an admin now");
        // The database refuses a second owner whatever the code does.
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, () -> platform.jdbi()
                .useHandle(h -> h.execute("UPDATE lnp_core.users SET role = 'owner' WHERE id = ?::uuid", formerOwnerId)))
                .getMessage().contains("users_one_owner"));
    }

    @Test
    void anotherWorkspacesMemberIsNotFound() {
        var alice = owner();
        var mallory = owner();
        String victim = address("victim");
        platform.workspaces().addUser(alice.workspaceId(), victim, "member");
        String victimId = userId(alice.workspaceId(), victim);
        assertEquals(404, post(mallory.client(), "/console/members/" + victimId + "/role", "role", "admin").status());
        assertEquals(404, post(mallory.client(), "/console/members/" + victimId + "/remove").status());
        assertEquals(404, post(mallory.client(), "/console/members/" + victimId + "/transfer").status());
        assertEquals(404, post(mallory.client(), "/console/members/not-a-uuid/remove").status());
        assertEquals("member", role(alice.workspaceId(), victim));
        assertFalse(mallory.client().get("/console/members").body().contains(victim));
    }

    @Test
    void theUsersApiListsOnlyTheCallersWorkspace() {
        var owner = owner();
        String member = address("member");
        platform.workspaces().addUser(owner.workspaceId(), member, "member");
        var other = platform.workspaces().create("Other", address("other"));
        String key = platform.key(owner.workspaceId(), "users.read");

        var list = platform.get("/api/v1/users?limit=1", key);
        assertEquals(200, list.status(), list.body());
        assertEquals(1, list.json().path("data").size());
        assertEquals(2, list.json().path("pagination").path("total").asInt(), list.body());
        var all = platform.get("/api/v1/users", key).json().path("data");
        assertEquals(2, all.size());
        var first = all.get(0);
        assertEquals(owner.email(), first.path("email").asText());
        assertEquals("owner", first.path("role").asText());

        String memberId = userId(owner.workspaceId(), member);
        var one = platform.get("/api/v1/users/" + memberId, key);
        assertEquals(200, one.status());
        assertEquals(member, one.json().path("data").path("email").asText());
        assertEquals("member", one.json().path("data").path("role").asText());
        String foreignId = userId(other.id(), other.ownerEmail());
        assertEquals(404, platform.get("/api/v1/users/" + foreignId, key).status());
        assertEquals(403, platform.get("/api/v1/users", platform.key(owner.workspaceId(), "probe.read")).status());
        assertEquals(401, platform.get("/api/v1/users", null).status());
        assertEquals(200, platform.get("/api/v1/users", platform.connections().create(
                new dev.lnp.core.auth.Connections.NewConnection(owner.workspaceId(), "ro", List.of(), "read-only",
                        null, null)).key()).status(), "read-only preset includes users.read");
    }

    @Test
    void workspaceCreatePrintsTheOwnersIdAndASignInLink() {
        String email = address("cli");
        var result = OperatorCli.run(platform, "workspace", "create", "--name", "From CLI", "--owner-email", email, "--json");
        assertEquals(0, result.exit(), result.toString());
        var json = result.json();
        String workspace = json.path("id").asText();
        assertEquals(userId(UUID.fromString(workspace), email), json.path("owner_user_id").asText());
        String link = json.path("sign_in_link").asText();
        assertTrue(link.contains("/console/sign-in/link?token="), link);
        // The link points at the configured base URL; here it is used on the test server.
        String path = link.substring(link.indexOf("/console/"));
        var browser = new ConsoleClient(platform.port());
        var confirm = browser.get(path);
        var signedIn = browser.post("/console/sign-in/link", ConsoleClient.form("csrf", confirm.hidden("csrf"),
                "token", confirm.hidden("token")));
        assertEquals(303, signedIn.status(), signedIn.body());
        assertTrue(browser.get("/console/connections").body().contains(email));
    }

    /** An owner whose link and session expired gets a new one-time link from the operator. */
    @Test
    void anOperatorMakesANewSignInLinkForAnExistingUser() {
        String email = address("locked-out");
        UUID workspace = platform.workspaces().create("Locked " + email, email).id();
        var result = OperatorCli.run(platform, "user", "sign-in-link", "--email", email.toUpperCase(java.util.Locale.ROOT),
                "--json");
        assertEquals(0, result.exit(), result.toString());
        assertEquals(workspace.toString(), result.json().path("workspace_id").asText());
        assertEquals(email, result.json().path("email").asText(), "the address as the user has it");
        String link = result.json().path("sign_in_link").asText();
        var browser = new ConsoleClient(platform.port());
        var confirm = browser.get(link.substring(link.indexOf("/console/")));
        var signedIn = browser.post("/console/sign-in/link", ConsoleClient.form("csrf", confirm.hidden("csrf"),
                "token", confirm.hidden("token")));
        assertEquals(303, signedIn.status(), signedIn.body());
        assertEquals("/console", signedIn.location(), "straight into the only workspace");
        assertTrue(browser.get("/console/members").body().contains(email));

        var text = OperatorCli.run(platform, "user", "sign-in-link", "--email", email, "--workspace", workspace.toString());
        assertEquals(0, text.exit(), text.toString());
        assertTrue(text.out().contains("/console/sign-in/link?token="), text.out());

        var unknown = OperatorCli.run(platform, "user", "sign-in-link", "--email", address("nobody"));
        assertEquals(1, unknown.exit(), unknown.toString());
        assertTrue(unknown.err().startsWith("error: no user has the e-mail address"), unknown.err());
        var otherWorkspace = OperatorCli.run(platform, "user", "sign-in-link", "--email", email, "--workspace",
                UUID.randomUUID().toString());
        assertEquals(1, otherWorkspace.exit(), otherWorkspace.toString());
        assertTrue(otherWorkspace.err().startsWith("error: ") && otherWorkspace.err().contains("is not a user of"),
                otherWorkspace.err());
        var usage = OperatorCli.run(platform, "user", "sign-in-link");
        assertEquals(2, usage.exit(), usage.toString());
        assertTrue(usage.err().startsWith("error: Missing required option: '--email"), usage.err());
        assertEquals(2, OperatorCli.run(platform, "user", "sign-in-link", "--email", email, "--workspace", "x").exit());
    }
}
