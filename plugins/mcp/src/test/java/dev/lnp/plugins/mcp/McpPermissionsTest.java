package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A tool is allowed when the key has its scope, the connection does not deny it (deny list, allow list,
 * read-only switch) and its module is enabled for the workspace. The same rule drives the session, the
 * catalog, the contract call and the protocol's tools/list and tools/call.
 */
@PlatformTest(plugins = {"mcp", "crm", "projects", "issues"})
class McpPermissionsTest {

    private static Set<String> allowedNames(TestPlatform platform, String key) {
        Set<String> names = new TreeSet<>();
        platform.get("/api/mcp/session", key).json().path("allowedToolNames").forEach(n -> names.add(n.asText()));
        return names;
    }

    private static JsonNode denial(TestPlatform platform, String key, String tool) {
        JsonNode tools = platform.get("/api/mcp/tools/list?includeDenied=true", key).json().path("tools");
        return McpContractEndpointsTest.find(tools, tool).path("denied");
    }

    private static TestResponse call(TestPlatform platform, String key, String tool, String args) {
        return platform.post("/api/mcp/tools/call", key, "{\"name\":\"" + tool + "\",\"arguments\":" + args + "}");
    }

    private static Set<String> protocolList(TestPlatform platform, String key) {
        Set<String> names = new TreeSet<>();
        McpFixtures.result(McpFixtures.rpc(platform, key, McpFixtures.LATEST, "tools/list", "{}")).path("tools")
                .forEach(t -> names.add(t.path("name").asText()));
        return names;
    }

    @Test
    void aToolNeedsItsScope(TestPlatform platform) {
        String key = platform.key(platform.createWorkspace("scope"), "mcp.use", "deals.read", "deals.write");
        assertEquals(Set.of("crm_list_deals", "crm_get_deal", "crm_create_deal", "crm_update_deal", "crm_delete_deal"),
                allowedNames(platform, key));
        assertEquals("missing_scope", denial(platform, key, "crm_create_contact").path("reason").asText());
        assertEquals(403, call(platform, key, "crm_create_contact", "{\"email\":\"a@example.com\"}").status());
        assertEquals(200, call(platform, key, "crm_create_deal", "{\"title\":\"Allowed\"}").status());
    }

    @Test
    void aToolsScopeImpliesMcpUseOnBothSurfaces(TestPlatform platform) {
        UUID ws = platform.createWorkspace("write-only");
        String writeOnly = platform.key(ws, "contacts.write");
        TestResponse created = platform.post("/api/v1/crm/contacts", writeOnly, "{\"email\":\"w@example.com\"}");
        assertEquals(201, created.status(), created.body());
        String contact = created.json().path("id").asText();
        TestResponse contract = call(platform, writeOnly, "crm_update_contact",
                "{\"id\":\"" + contact + "\",\"first_name\":\"Wanda\"}");
        assertEquals(200, contract.status(), contract.body());
        assertEquals("Wanda", contract.json().path("data").path("first_name").asText());
        JsonNode rpc = McpFixtures.callTool(platform, writeOnly, "crm_update_contact",
                "{\"id\":\"" + contact + "\",\"last_name\":\"Write\"}");
        assertFalse(rpc.path("isError").asBoolean(), rpc.toString());
        assertTrue(allowedNames(platform, writeOnly).contains("crm_update_contact"));
        TestResponse list = call(platform, writeOnly, "crm_list_contacts", "{}");
        assertEquals(403, list.status(), "every tool still needs its own scope");
        assertEquals("tool_denied", list.json().path("code").asText());

        String noTools = platform.key(ws, "webhooks.read");
        TestResponse refused = call(platform, noTools, "crm_list_contacts", "{}");
        assertEquals(403, refused.status(), refused.body());
        assertEquals("missing_scope", refused.json().path("code").asText());
        assertEquals(403, McpFixtures.rpc(platform, noTools, McpFixtures.LATEST, "tools/list", "{}").status(),
                "a key without any tool's scope does not reach the protocol endpoint either");
    }

    @Test
    void theConnectionsDenyListDeniesATheKeyCouldOtherwiseCall(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("deny"));
        McpFixtures.toolPolicy(platform, key, null, List.of("projects_delete", "crm_delete_contact"), false);
        Set<String> allowed = allowedNames(platform, key);
        assertFalse(allowed.contains("projects_delete"));
        assertFalse(allowed.contains("crm_delete_contact"));
        assertTrue(allowed.contains("projects_create"));
        JsonNode denial = denial(platform, key, "projects_delete");
        assertEquals("denied_for_connection", denial.path("reason").asText());
        assertEquals("tool_deny", denial.path("setting").asText());
        String project = call(platform, key, "projects_create", "{\"name\":\"Keep\"}").json().path("data").path("id").asText();
        TestResponse refused = call(platform, key, "projects_delete", "{\"id\":\"" + project + "\"}");
        assertEquals(403, refused.status(), refused.body());
        assertEquals("denied_for_connection", refused.json().path("errors").get(0).path("rule").asText());
        assertEquals(200, platform.get("/api/v1/projects/" + project, key).status(), "nothing was deleted");
        assertFalse(protocolList(platform, key).contains("projects_delete"));
        JsonNode session = platform.get("/api/mcp/session", key).json().path("permissions");
        assertEquals(List.of("projects_delete", "crm_delete_contact"), texts(session.path("toolDenyList")));
    }

    @Test
    void anAllowListLimitsTheConnectionToTheToolsOnIt(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("allow"));
        McpFixtures.toolPolicy(platform, key, List.of("projects_list", "projects_get", "crm_delete_contact"), List.of(),
                false);
        assertEquals(Set.of("projects_list", "projects_get", "crm_delete_contact"), allowedNames(platform, key));
        assertEquals(Set.of("projects_list", "projects_get", "crm_delete_contact"), protocolList(platform, key));
        JsonNode denial = denial(platform, key, "projects_create");
        assertEquals("denied_for_connection", denial.path("reason").asText());
        assertEquals("tool_allow", denial.path("setting").asText());
        assertEquals(403, call(platform, key, "projects_create", "{\"name\":\"No\"}").status());
        assertEquals(200, call(platform, key, "projects_list", "{}").status());
    }

    @Test
    void anAllowListDoesNotGrantAToolWhoseScopeTheKeyLacks(TestPlatform platform) {
        String key = platform.key(platform.createWorkspace("allow-scope"), "mcp.use", "projects.read");
        McpFixtures.toolPolicy(platform, key, List.of("projects_list", "projects_create"), List.of(), false);
        assertEquals(Set.of("projects_list"), allowedNames(platform, key));
        assertEquals("missing_scope", denial(platform, key, "projects_create").path("reason").asText());
    }

    @Test
    void theReadOnlySwitchAllowsOnlyToolsAnnotatedReadOnly(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("read-only"));
        McpFixtures.toolPolicy(platform, key, null, List.of(), true);
        var registry = platform.platform().registry();
        Set<String> expected = new TreeSet<>();
        registry.tools().forEach(t -> {
            if (t.descriptor().annotations().readOnly()) {
                expected.add(t.descriptor().name());
            }
        });
        assertEquals(expected, allowedNames(platform, key));
        assertEquals(expected, protocolList(platform, key));
        JsonNode denial = denial(platform, key, "crm_create_deal");
        assertEquals("denied_for_connection", denial.path("reason").asText());
        assertEquals("read_only_tools", denial.path("setting").asText());
        assertEquals(403, call(platform, key, "crm_create_deal", "{\"title\":\"No\"}").status());
        assertTrue(platform.get("/api/mcp/session", key).json().path("permissions").path("readOnlyTools").asBoolean());
        assertEquals(201, platform.post("/api/v1/crm/deals", key, "{\"title\":\"REST is not limited by MCP tool settings\"}")
                .status());
    }

    @Test
    void aModuleSwitchedOffForTheWorkspaceDeniesItsTools(TestPlatform platform) {
        UUID ws = platform.createWorkspace("module");
        String key = platform.fullAccessKey(ws);
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.workspaces SET disabled_modules = '{crm}' WHERE id = ?", ws));
        Set<String> allowed = allowedNames(platform, key);
        assertTrue(allowed.stream().noneMatch(n -> n.startsWith("crm_")), allowed.toString());
        assertTrue(allowed.contains("projects_list"));
        JsonNode denial = denial(platform, key, "crm_list_contacts");
        assertEquals("module_disabled", denial.path("reason").asText());
        TestResponse refused = call(platform, key, "crm_list_contacts", "{}");
        assertEquals(403, refused.status(), refused.body());
        assertEquals("module_disabled", refused.json().path("errors").get(0).path("rule").asText());
        assertEquals(List.of("crm"), texts(platform.get("/api/mcp/session", key).json().path("permissions")
                .path("disabledModules")));
    }

    @Test
    void whenSeveralReasonsApplyTheModuleComesFirstThenTheConnectionThenTheScope(TestPlatform platform) {
        UUID ws = platform.createWorkspace("order");
        String key = platform.key(ws, "mcp.use", "projects.read");
        McpFixtures.toolPolicy(platform, key, null, List.of("crm_create_contact", "projects_create"), false);
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.workspaces SET disabled_modules = '{crm}' WHERE id = ?", ws));
        assertEquals("module_disabled", denial(platform, key, "crm_create_contact").path("reason").asText());
        assertEquals("denied_for_connection", denial(platform, key, "projects_create").path("reason").asText());
        assertEquals("missing_scope", denial(platform, key, "projects_update").path("reason").asText());
    }

    @Test
    void permissionsGrantedListsExactlyWhatTheKeyHoldsAfterDelegation(TestPlatform platform) {
        UUID ws = platform.createWorkspace("delegated");
        UUID member = platform.jdbi().withHandle(h -> h.createQuery(
                "INSERT INTO lnp_core.users (workspace_id, email, role) VALUES (:ws, 'm@example.com', 'member') RETURNING id")
                .bind("ws", ws).mapTo(UUID.class).one());
        String key = platform.connections().create(new dev.lnp.core.auth.Connections.NewConnection(ws, "d",
                List.of(), "full-access", null, member)).key();
        JsonNode session = platform.get("/api/mcp/session", key).json();
        Set<String> granted = new TreeSet<>(texts(session.path("permissions").path("granted")));
        assertEquals(new TreeSet<>(platform.principal(key).scopes()), granted);
        assertTrue(granted.stream().noneMatch(s -> s.startsWith("webhooks.")), granted.toString());
        assertEquals(member.toString(), session.path("key").path("delegatedUserId").asText());
    }

    @Test
    void changingAConnectionsToolSettingsTakesEffectOnItsNextRequest(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("live"));
        assertEquals(200, call(platform, key, "projects_list", "{}").status());
        McpFixtures.toolPolicy(platform, key, null, List.of("projects_list"), false);
        assertEquals(403, call(platform, key, "projects_list", "{}").status());
        McpFixtures.toolPolicy(platform, key, null, List.of(), false);
        assertEquals(200, call(platform, key, "projects_list", "{}").status());
    }

    private static List<String> texts(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }
}
