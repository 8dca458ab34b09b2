package dev.lnp.testkit.console;

import dev.lnp.testkit.MailCatcher;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.TestPlatform;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Modules (per-workspace plugin switch), Usage (declared monthly quotas, rate limits) and the operators' mailbox. */
class ConsoleWorkspacePagesTest {

    private static final String OPERATOR = "operator@example.com";
    private static MailCatcher mail;
    private static TestPlatform platform;

    @BeforeAll
    static void start() {
        mail = new MailCatcher();
        var config = new HashMap<>(mail.platformConfig());
        config.put("lnp.console.operators", OPERATOR + ", other-operator@example.com");
        config.put("lnp.quotas.probe_writes.monthly", "1000");
        platform = TestPlatform.start("console-workspace", List.of("probe"), null, config);
    }

    @AfterAll
    static void stop() {
        platform.close();
        mail.close();
    }

    private record Owner(String email, UUID workspaceId, ConsoleClient client) {
    }

    private static Owner owner(String email) {
        UUID workspace = platform.workspaces().create("Acme " + email, email).id();
        return new Owner(email, workspace, new ConsoleClient(platform.port()).signIn(mail, email));
    }

    private static String address(String who) {
        return who + "-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
    }

    @Test
    void aModuleSwitchedOffAnswers404ForTheWorkspaceUntilSwitchedOn() {
        var owner = owner(address("owner"));
        String key = platform.key(owner.workspaceId(), "probe.read");
        var other = platform.workspaces().create("Other", address("other"));
        String otherKey = platform.key(other.id(), "probe.read");
        var page = owner.client().get("/console/modules");
        assertEquals(200, page.status(), page.body());
        assertTrue(page.body().contains("id=\"state-probe\">on<"), page.body());

        // A plain POST without the confirmation only asks: the module stays on.
        var asked = owner.client().post("/console/modules/probe", ConsoleClient.form("csrf", page.hidden("csrf"),
                "enabled", "false"));
        assertEquals(200, asked.status(), asked.body());
        assertTrue(asked.body().contains("Switch off probe?") && asked.body().contains("name=\"confirm\" value=\"yes\""),
                asked.body());
        assertEquals(200, platform.get("/api/v1/probe/items", key).status(), "still on without confirmation");
        assertTrue(owner.client().get("/console/modules").body().contains("id=\"state-probe\">on<"));
        assertEquals(200, owner.client().post("/console/modules/probe", ConsoleClient.form("csrf", page.hidden("csrf"),
                "enabled", "false", "confirm", "no")).status(), "only yes confirms");
        assertEquals(200, platform.get("/api/v1/probe/items", key).status());

        var off = owner.client().post("/console/modules/probe", ConsoleClient.form("csrf", asked.hidden("csrf"),
                "enabled", asked.hidden("enabled"), "confirm", asked.hidden("confirm")));
        assertEquals(303, off.status(), off.body());
        assertEquals(404, platform.get("/api/v1/probe/items", key).status());
        assertEquals(200, platform.get("/api/v1/probe/items", otherKey).status(), "only this workspace");
        assertTrue(owner.client().get("/console/modules").body().contains("id=\"state-probe\">off<"));

        assertEquals(303, owner.client().post("/console/modules/probe", ConsoleClient.form("csrf", page.hidden("csrf"),
                "enabled", "true")).status());
        assertEquals(200, platform.get("/api/v1/probe/items", key).status());
        assertEquals(404, owner.client().post("/console/modules/core", ConsoleClient.form("csrf", page.hidden("csrf"),
                "enabled", "false")).status(), "the core is not a module");
        assertEquals(404, owner.client().post("/console/modules/nope", ConsoleClient.form("csrf", page.hidden("csrf"),
                "enabled", "false")).status());
        assertEquals(404, owner.client().post("/console/modules/probe", ConsoleClient.form("csrf", page.hidden("csrf"),
                "enabled", "maybe")).status());
        assertTrue(owner.client().get("/console/activity").body().contains("module.disabled"));
    }

    @Test
    void usageShowsEachDeclaredQuotaThisMonthAndTheLimits() {
        var owner = owner(address("owner"));
        String key = platform.key(owner.workspaceId(), "probe.write");
        assertEquals(201, platform.post("/api/v1/probe/items", key, "{\"name\":\"a\",\"kind\":\"a\"}").status());
        assertEquals(201, platform.post("/api/v1/probe/items", key, "{\"name\":\"b\",\"kind\":\"a\"}").status());
        var page = owner.client().get("/console/usage");
        assertEquals(200, page.status(), page.body());
        assertTrue(page.body().contains("probe_writes"), "the probe plugin's declared quota: " + page.body());
        assertTrue(page.body().contains("<strong>2</strong> of 1000"), page.body());
        assertTrue(page.body().contains("the deployment's limit"), page.body());
        assertTrue(page.body().contains("<strong>600</strong> REST requests"));

        platform.setQuota(owner.workspaceId(), "probe_writes", 5);
        var own = owner.client().get("/console/usage");
        assertTrue(own.body().contains("<strong>2</strong> of 5") && own.body().contains("a limit set for this workspace"),
                own.body());
    }

    @Test
    void onlyOperatorsSeeTheMailboxAndMembersSeeNeitherModulesNorUsage() {
        String memberEmail = address("member");
        var owner = owner(address("owner"));
        platform.workspaces().addUser(owner.workspaceId(), memberEmail, "member");
        var member = new ConsoleClient(platform.port()).signIn(mail, memberEmail);
        assertEquals(403, member.get("/console/modules").status());
        assertEquals(403, member.get("/console/usage").status());
        var sessions = member.get("/console/sessions");
        assertEquals(403, member.post("/console/modules/probe", ConsoleClient.form("csrf", sessions.hidden("csrf"),
                "enabled", "false")).status());
        assertEquals(403, owner.client().get("/console/mailbox").status(), "an owner is not an operator");
        assertTrue(!owner.client().get("/console/connections").body().contains("/console/mailbox"));

        var operator = owner(OPERATOR);
        var list = operator.client().get("/console/mailbox");
        assertEquals(200, list.status(), list.body());
        assertTrue(list.body().contains(memberEmail), "the member's sign-in mail is listed");
        String id = list.firstMatch("href=\"/console/mailbox/([0-9a-f-]{36})\"");
        assertEquals(200, operator.client().get("/console/mailbox/" + id).status());
        assertEquals(404, operator.client().get("/console/mailbox/" + UUID.randomUUID()).status());
    }
}
