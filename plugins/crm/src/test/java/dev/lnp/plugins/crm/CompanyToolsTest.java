package dev.lnp.plugins.crm;

import static dev.lnp.plugins.crm.Problems.assertNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The company tools share the REST routes' service, rules and answers. */
@PlatformTest(plugins = "crm")
class CompanyToolsTest {

    private static String key;
    private static String otherKey;

    @BeforeAll
    static void keys(TestPlatform platform) {
        key = platform.key(platform.createWorkspace("company-tools"), "companies.read", "companies.write");
        otherKey = platform.key(platform.createWorkspace("company-tools-other"), "companies.read", "companies.write");
    }

    /** The result as a client reads it: through its JSON text, as the REST answers it is compared with. */
    private static JsonNode data(ToolResult result) {
        try {
            return Json.parse(Json.mapper().writeValueAsString(result.data()));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void createGetUpdateAndListReportTheCompanyTheyTouched(TestPlatform platform) {
        ToolResult created = platform.callTool(key, "crm_create_company",
                "{\"name\":\"Umbrella\",\"domain\":\"umbrella.example\",\"employees\":900}");
        String id = data(created).path("id").asText();
        assertEquals("company", created.entities().get(0).type());
        assertEquals("created", created.entities().get(0).action());
        assertEquals(data(created), platform.get("/api/v1/crm/companies/" + id, key).data());

        ToolResult read = platform.callTool(key, "crm_get_company", "{\"id\":\"" + id + "\"}");
        assertEquals(data(created), data(read));
        assertEquals("read", read.entities().get(0).action());

        ToolResult updated = platform.callTool(key, "crm_update_company",
                "{\"id\":\"" + id + "\",\"employees\":950,\"website\":null}");
        assertEquals(950, data(updated).path("employees").asInt());
        assertEquals("umbrella.example", data(updated).path("domain").asText());
        assertEquals(UUID.fromString(id), updated.entities().get(0).id());
        assertEquals("updated", updated.entities().get(0).action());

        JsonNode listed = data(platform.callTool(key, "crm_list_companies", "{\"limit\":1}"));
        assertEquals(id, listed.path("items").get(0).path("id").asText());
        assertTrue(listed.path("pagination").path("total").asInt() >= 1);
        JsonNode found = data(platform.callTool(key, "crm_search_companies", "{\"query\":\"UMBRELLA\"}"));
        assertEquals(1, found.path("items").size());
        assertEquals(data(updated), found.path("items").get(0));
    }

    @Test
    void theToolsApplyTheRoutesRules(TestPlatform platform) {
        String id = data(platform.callTool(key, "crm_create_company", "{\"name\":\"Rules\",\"domain\":\"rules.example\"}"))
                .path("id").asText();
        assertNames(assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_create_company", "{}")), 422, "/name");
        assertNames(assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_create_company",
                "{\"name\":\"x\",\"size\":\"big\"}")), 422, "/size");
        assertNames(assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_update_company",
                "{\"id\":\"" + id + "\"}")), 422, "");
        assertNames(assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_update_company",
                "{\"name\":\"no id\"}")), 422, "/id");
        assertNames(assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_search_companies", "{}")),
                422, "/query");
        ApiProblem duplicate = assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_create_company",
                "{\"name\":\"Copy\",\"domain\":\"RULES.example\"}"));
        assertEquals(409, duplicate.status());
        assertEquals("duplicate_domain", duplicate.code());
    }

    @Test
    void anotherWorkspacesCompanyIsNotFound(TestPlatform platform) {
        String id = data(platform.callTool(key, "crm_create_company", "{\"name\":\"Private\"}")).path("id").asText();
        for (String call : new String[] {"crm_get_company", "crm_update_company"}) {
            String args = "{\"id\":\"" + id + "\"" + (call.contains("update") ? ",\"name\":\"Mallory\"}" : "}");
            ApiProblem problem = assertThrows(ApiProblem.class, () -> platform.callTool(otherKey, call, args));
            assertEquals(404, problem.status(), call);
        }
        assertEquals(0, data(platform.callTool(otherKey, "crm_search_companies", "{\"query\":\"private\"}"))
                .path("items").size());
        assertEquals("Private", platform.get("/api/v1/crm/companies/" + id, key).data().path("name").asText());
    }
}
