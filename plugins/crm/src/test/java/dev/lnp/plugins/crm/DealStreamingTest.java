package dev.lnp.plugins.crm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The deals list is written from the result set straight into the response ({@code JsonRows}): every listed deal
 * must be exactly the JSON that creating it answered, filtered or not, on REST and through the list tool.
 */
@PlatformTest(plugins = "crm")
class DealStreamingTest {

    private static String key;
    private static final Map<String, JsonNode> created = new HashMap<>();

    @BeforeAll
    static void deals(TestPlatform platform) {
        key = platform.fullAccessKey(platform.createWorkspace("deal-streaming"));
        create(platform, """
                {"title":"Łukasz \\"big\\" <deal>","value":1234567.50,"currency":"EUR","stage":"proposal",
                 "status":"open","probability":12,"expected_close_date":"2027-02-28","description":"a\\nb\\t🎉",
                 "lost_reason":null,"source":"web","tags":["x","β",""],"custom_fields":{"n":1.25,"l":[true,null]},
                 "external_id":"ext-9","commission_pct":7,"territory":"EMEA"}""");
        create(platform, """
                {"title":"minimal"}""");
        create(platform, """
                {"title":"won","status":"closed_won","stage":"closed_won","value":0,"actual_close_date":"2026-01-31"}""");
    }

    private static void create(TestPlatform platform, String body) {
        var response = platform.post("/api/v1/crm/deals", key, body);
        assertEquals(201, response.status(), response.body());
        created.put(response.data().path("id").asText(), response.data());
    }

    @Test
    void restListItemsAreTheDealsAsCreated(TestPlatform platform) {
        for (String query : List.of("limit=10", "status=open&limit=10", "stage=proposal&value_min=1000&limit=10",
                "limit=1&page=2")) {
            var response = platform.get("/api/v1/crm/deals?" + query, key);
            assertEquals(200, response.status(), response.body());
            assertTrue(response.data().size() > 0, query + ": " + response.body());
            for (JsonNode item : response.data()) {
                // Compared as text: a parsed number node and a copied one differ in class, not in JSON.
                assertEquals(created.get(item.path("id").asText()).toString(), item.toString(), query);
            }
        }
        var filtered = platform.get("/api/v1/crm/deals?status=open&limit=1", key);
        assertEquals(2, filtered.json().path("pagination").path("total").asInt(), filtered.body());
    }

    @Test
    void theListToolAnswersTheSameRowsAndNamesEveryOneRead(TestPlatform platform) {
        ToolResult result = platform.callTool(key, "crm_list_deals", "{\"limit\":10}");
        JsonNode tree = Json.mapper().valueToTree(result.data());
        JsonNode rest = platform.get("/api/v1/crm/deals?limit=10", key).json();
        assertEquals(rest.path("data").toString(), tree.path("items").toString());
        assertEquals(rest.path("pagination").toString(), tree.path("pagination").toString());
        assertEquals(3, result.entities().size());
        assertTrue(result.entities().stream().allMatch(e -> e.type().equals("deal") && e.action().equals("read")));
    }
}
