package dev.lnp.plugins.crm;

import static dev.lnp.plugins.crm.Problems.assertNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.HttpMethod;
import dev.lnp.api.mcp.ToolDescriptor;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The MCP tools, called through the registry: contact update and delete exist only here. */
@PlatformTest(plugins = "crm")
class CrmToolsTest {

    private static String key;
    private static String otherKey;

    @BeforeAll
    static void keys(TestPlatform platform) {
        key = platform.fullAccessKey(platform.createWorkspace("tools"));
        otherKey = platform.fullAccessKey(platform.createWorkspace("tools-other"));
    }

    private static JsonNode data(ToolResult result) {
        return Json.mapper().valueToTree(result.data());
    }

    private static ToolDescriptor tool(TestPlatform platform, String name) {
        return platform.platform().registry().tool(name).orElseThrow().descriptor();
    }

    private static JsonNode routeSchema(TestPlatform platform, HttpMethod method, String path) {
        return platform.platform().registry().routes().stream()
                .filter(r -> r.spec().method() == method && r.spec().path().equals(path))
                .findFirst().orElseThrow().spec().bodySchema();
    }

    private static String contact(TestPlatform platform, String email) {
        var response = platform.post("/api/v1/crm/contacts", key, "{\"email\":\"" + email + "\"}");
        assertEquals(201, response.status(), response.body());
        return response.json().path("id").asText();
    }

    @Test
    void theCatalogHasEveryToolWithItsScopeQuotaAndAnnotations(TestPlatform platform) {
        Set<String> names = platform.platform().registry().contributionsOf("crm").orElseThrow().tools().stream()
                .map(ToolDescriptor::name).collect(Collectors.toSet());
        assertEquals(Set.of("crm_list_contacts", "crm_search_contacts", "crm_get_contact", "crm_create_contact",
                "crm_update_contact", "crm_delete_contact", "crm_list_deals", "crm_get_deal", "crm_create_deal",
                "crm_update_deal", "crm_delete_deal", "crm_list_companies", "crm_search_companies", "crm_get_company",
                "crm_create_company", "crm_update_company"), names);
        for (String read : Set.of("crm_list_contacts", "crm_search_contacts", "crm_get_contact", "crm_list_deals",
                "crm_get_deal", "crm_list_companies", "crm_search_companies", "crm_get_company")) {
            assertTrue(tool(platform, read).annotations().readOnly(), read);
            assertEquals(null, tool(platform, read).quota(), read);
            assertTrue(tool(platform, read).scope().endsWith(".read"), read);
        }
        for (String write : names.stream().filter(n -> n.contains("create") || n.contains("update") || n.contains("delete")).toList()) {
            assertFalse(tool(platform, write).annotations().readOnly(), write);
            assertEquals("crm", tool(platform, write).quota(), write);
            assertTrue(tool(platform, write).scope().endsWith(".write"), write);
            // MCP: destructive unless it only adds; an update overwrites existing values.
            assertEquals(!write.contains("create"), tool(platform, write).annotations().destructive(), write);
            assertTrue(tool(platform, write).outputSchema().isObject(), write);
        }
    }

    @Test
    void createToolsValidateWithTheRoutesOwnSchema(TestPlatform platform) {
        assertSame(routeSchema(platform, HttpMethod.POST, "/api/v1/crm/contacts"),
                tool(platform, "crm_create_contact").inputSchema());
        assertSame(routeSchema(platform, HttpMethod.POST, "/api/v1/crm/deals"),
                tool(platform, "crm_create_deal").inputSchema());
        assertSame(routeSchema(platform, HttpMethod.POST, "/api/v1/crm/companies"),
                tool(platform, "crm_create_company").inputSchema());
        // The update tool adds only the id to the PATCH route's schema.
        for (String entity : Set.of("deal", "company")) {
            String plural = entity.equals("deal") ? "deals" : "companies";
            JsonNode patch = routeSchema(platform, HttpMethod.PATCH, "/api/v1/crm/" + plural + "/{id}");
            JsonNode update = tool(platform, "crm_update_" + entity).inputSchema();
            assertEquals(patch.path("properties").size() + 1, update.path("properties").size(), entity);
            patch.path("properties").fieldNames().forEachRemaining(f ->
                    assertEquals(patch.path("properties").get(f), update.path("properties").get(f), f));
        }
    }

    @Test
    void everyWriteRouteDeclaresTheCrmQuota(TestPlatform platform) {
        platform.platform().registry().routes().stream().filter(r -> r.pluginId().equals("crm"))
                .forEach(r -> assertEquals(r.spec().method() == HttpMethod.GET ? null : "crm", r.spec().quota(),
                        r.spec().method() + " " + r.spec().path()));
    }

    @Test
    void updateChangesOnlyTheGivenFieldsAndReportsTheEntity(TestPlatform platform) {
        String id = contact(platform, "update-me@example.com");
        ToolResult result = platform.callTool(key, "crm_update_contact",
                "{\"id\":\"" + id + "\",\"first_name\":\"Grace\",\"status\":\"inactive\",\"tags\":[\"vip\"]}");
        JsonNode contact = data(result);
        assertEquals("Grace", contact.path("first_name").asText());
        assertEquals("inactive", contact.path("status").asText());
        assertEquals("update-me@example.com", contact.path("email").asText());
        assertEquals("vip", contact.path("tags").get(0).asText());
        assertEquals("contact", result.entities().get(0).type());
        assertEquals(UUID.fromString(id), result.entities().get(0).id());
        assertEquals("updated", result.entities().get(0).action());
        // The status counters follow the change: the status-filtered total is read from them.
        var inactive = platform.get("/api/v1/crm/contacts?status=inactive", key);
        assertTrue(inactive.data().toString().contains(id));
        assertEquals(inactive.data().size(), inactive.json().path("pagination").path("total").asInt());
    }

    @Test
    void updateAppliesTheContactRulesAndNeedsAField(TestPlatform platform) {
        String id = contact(platform, "rules@example.com");
        assertNames(assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_update_contact",
                "{\"id\":\"" + id + "\"}")), 422, "");
        assertNames(assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_update_contact",
                "{\"first_name\":\"No id\"}")), 422, "/id");
        assertNames(assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_update_contact",
                "{\"id\":\"" + id + "\",\"email\":\"nope\"}")), 422, "/email");
        assertNames(assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_update_contact",
                "{\"id\":\"" + id + "\",\"company\":\"Acme\"}")), 422, "/company");
        assertNames(assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_update_contact",
                "{\"id\":\"" + id + "\",\"phone\":\"" + "9".repeat(51) + "\"}")), 422, "/phone");
        contact(platform, "taken@example.com");
        ApiProblem duplicate = assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_update_contact",
                "{\"id\":\"" + id + "\",\"email\":\"Taken@Example.com\"}"));
        assertEquals(409, duplicate.status());
        assertEquals("duplicate_email", duplicate.code());
    }

    @Test
    void updateAndDeleteOfAnotherWorkspacesContactAreNotFound(TestPlatform platform) {
        String id = contact(platform, "guarded@example.com");
        assertEquals(404, assertThrows(ApiProblem.class, () -> platform.callTool(otherKey, "crm_update_contact",
                "{\"id\":\"" + id + "\",\"first_name\":\"Mallory\"}")).status());
        assertEquals(404, assertThrows(ApiProblem.class, () -> platform.callTool(otherKey, "crm_delete_contact",
                "{\"id\":\"" + id + "\"}")).status());
        var mine = platform.get("/api/v1/crm/contacts?search=guarded", key);
        assertEquals(1, mine.data().size());
        assertTrue(mine.data().get(0).path("first_name").isNull());
    }

    @Test
    void getReadsOneContactOfTheWorkspaceAsTheListReturnsIt(TestPlatform platform) {
        String id = contact(platform, "read-me@example.com");
        ToolResult read = platform.callTool(key, "crm_get_contact", "{\"id\":\"" + id + "\"}");
        JsonNode listed = platform.get("/api/v1/crm/contacts?search=read-me", key).data().get(0);
        assertEquals(listed, data(read));
        assertEquals("contact", read.entities().get(0).type());
        assertEquals(UUID.fromString(id), read.entities().get(0).id());
        assertEquals("read", read.entities().get(0).action());

        ApiProblem foreign = assertThrows(ApiProblem.class,
                () -> platform.callTool(otherKey, "crm_get_contact", "{\"id\":\"" + id + "\"}"));
        ApiProblem missing = assertThrows(ApiProblem.class,
                () -> platform.callTool(key, "crm_get_contact", "{\"id\":\"" + UUID.randomUUID() + "\"}"));
        assertEquals(404, foreign.status());
        assertEquals(missing.getMessage(), foreign.getMessage(), "another workspace's contact reads as a missing one");
        assertNames(assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_get_contact", "{}")), 422, "/id");
        assertNames(assertThrows(ApiProblem.class,
                () -> platform.callTool(key, "crm_get_contact", "{\"id\":\"nope\"}")), 422, "/id");
    }

    @Test
    void deleteRemovesTheContactKeepsItsDealsAndUpdatesTheTotal(TestPlatform platform) {
        String id = contact(platform, "delete-me@example.com");
        var deal = platform.post("/api/v1/crm/deals", key, "{\"title\":\"Orphan\",\"contact_id\":\"" + id + "\"}");
        long before = platform.get("/api/v1/crm/contacts", key).json().path("pagination").path("total").asLong();

        ToolResult result = platform.callTool(key, "crm_delete_contact", "{\"id\":\"" + id + "\"}");
        assertEquals(id, data(result).path("id").asText());
        assertTrue(data(result).path("deleted").asBoolean());
        assertEquals("deleted", result.entities().get(0).action());

        assertEquals(before - 1, platform.get("/api/v1/crm/contacts", key).json().path("pagination").path("total").asLong());
        assertEquals(0, platform.get("/api/v1/crm/contacts?search=delete-me", key).data().size());
        var orphan = platform.get("/api/v1/crm/deals/" + deal.data().path("id").asText(), key);
        assertEquals(200, orphan.status());
        assertTrue(orphan.data().path("contact_id").isNull(), orphan.body());
        assertEquals(404, assertThrows(ApiProblem.class,
                () -> platform.callTool(key, "crm_delete_contact", "{\"id\":\"" + id + "\"}")).status());
    }

    @Test
    void dealToolsShareTheRestRules(TestPlatform platform) {
        ToolResult created = platform.callTool(key, "crm_create_deal", "{\"title\":\"Via MCP\",\"value\":300}");
        String id = data(created).path("id").asText();
        assertEquals("created", created.entities().get(0).action());
        assertEquals("deal", created.entities().get(0).type());
        assertEquals("Via MCP", platform.get("/api/v1/crm/deals/" + id, key).data().path("title").asText());

        ToolResult read = platform.callTool(key, "crm_get_deal", "{\"id\":\"" + id + "\"}");
        assertEquals("read", read.entities().get(0).action());

        ToolResult updated = platform.callTool(key, "crm_update_deal", "{\"id\":\"" + id + "\",\"stage\":\"closed_lost\",\"lost_reason\":\"budget\"}");
        assertEquals("closed_lost", data(updated).path("status").asText());
        assertEquals("updated", updated.entities().get(0).action());
        ApiProblem transition = assertThrows(ApiProblem.class,
                () -> platform.callTool(key, "crm_update_deal", "{\"id\":\"" + id + "\",\"status\":\"closed_won\"}"));
        assertEquals(409, transition.status());
        assertEquals("invalid_transition", transition.code());
        assertNames(assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_update_deal",
                "{\"id\":\"" + id + "\"}")), 422, "");
        assertNames(assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_create_deal",
                "{\"value\":1}")), 422, "/title");
        assertNames(assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_create_deal",
                "{\"title\":\"x\",\"contact_id\":\"" + UUID.randomUUID() + "\"}")), 422, "/contact_id");
        assertEquals(404, assertThrows(ApiProblem.class,
                () -> platform.callTool(otherKey, "crm_get_deal", "{\"id\":\"" + id + "\"}")).status());

        ToolResult deleted = platform.callTool(key, "crm_delete_deal", "{\"id\":\"" + id + "\"}");
        assertTrue(data(deleted).path("deleted").asBoolean());
        assertEquals(404, platform.get("/api/v1/crm/deals/" + id, key).status());
    }
}
