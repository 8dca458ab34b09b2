package dev.lnp.plugins.crm;

import static dev.lnp.plugins.crm.Problems.assertNames;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** GET /api/v1/crm/deals: every filter alone, repeated, and combined; totals follow the filters. */
@PlatformTest(plugins = "crm")
class DealFilterTest {

    private static final UUID ANN = UUID.randomUUID();
    private static final UUID BOB = UUID.randomUUID();
    private static UUID acme;
    private static UUID globex;
    private static String key;
    private static String contact;

    @BeforeAll
    static void deals(TestPlatform platform) {
        key = platform.key(platform.createWorkspace("deal-filters"), "deals.read", "deals.write", "contacts.write",
                "companies.write");
        contact = platform.post("/api/v1/crm/contacts", key, "{\"email\":\"c@example.com\"}").json().path("id").asText();
        acme = company(platform, key, "Acme");
        globex = company(platform, key, "Globex");
        create(platform, "d1", "open", "discovery", ANN, acme, 100, true);
        create(platform, "d2", "open", "proposal", BOB, acme, 5000, false);
        create(platform, "d3", "on_hold", "negotiation", ANN, globex, 20000, true);
        create(platform, "d4", "closed_won", "closed_won", BOB, globex, 75000, false);
        create(platform, "d5", "closed_lost", "closed_lost", null, null, null, true);
        // Another workspace's deal matches the filter values it can hold but must never be listed (it cannot name
        // this workspace's company: CompanyReferencesTest).
        String other = platform.key(platform.createWorkspace("deal-filters-other"), "deals.write", "companies.write");
        var foreign = platform.post("/api/v1/crm/deals", other, """
                {"title":"foreign","assigned_to":"%s","company_id":"%s","value":100}"""
                .formatted(ANN, company(platform, other, "Acme")));
        assertEquals(201, foreign.status(), foreign.body());
    }

    private static UUID company(TestPlatform platform, String key, String name) {
        var response = platform.post("/api/v1/crm/companies", key, "{\"name\":\"" + name + "\"}");
        assertEquals(201, response.status(), response.body());
        return UUID.fromString(response.data().path("id").asText());
    }

    private static void create(TestPlatform platform, String title, String status, String stage, UUID assignee,
            UUID company, Integer value, boolean withContact) {
        String body = """
                {"title":"%s","status":"%s","stage":"%s","assigned_to":%s,"company_id":%s,"value":%s,"contact_id":%s}
                """.formatted(title, status, stage, quoted(assignee), quoted(company), value,
                withContact ? "\"" + contact + "\"" : "null");
        var response = platform.post("/api/v1/crm/deals", key, body);
        assertEquals(201, response.status(), response.body());
    }

    private static String quoted(UUID id) {
        return id == null ? "null" : "\"" + id + "\"";
    }

    private static Set<String> titles(TestPlatform platform, String query) {
        var response = platform.get("/api/v1/crm/deals" + query, key);
        assertEquals(200, response.status(), response.body());
        Set<String> titles = new TreeSet<>();
        response.data().forEach(d -> titles.add(d.path("title").asText()));
        assertEquals(titles.size(), response.json().path("pagination").path("total").asInt(), response.body());
        return titles;
    }

    @Test
    void withoutFiltersListsEveryDealOfTheWorkspaceNewestFirst(TestPlatform platform) {
        var response = platform.get("/api/v1/crm/deals", key);
        assertEquals(List.of("d5", "d4", "d3", "d2", "d1"), inOrder(response));
        JsonNode pagination = response.json().path("pagination");
        assertEquals(1, pagination.path("page").asInt());
        assertEquals(50, pagination.path("limit").asInt());
        assertEquals(5, pagination.path("total").asInt());
        assertFalse(pagination.path("hasMore").asBoolean());
    }

    @Test
    void pagesCarryTheFullTotal(TestPlatform platform) {
        var second = platform.get("/api/v1/crm/deals?limit=2&page=2", key);
        assertEquals(2, second.data().size());
        assertEquals("d3", second.data().get(0).path("title").asText());
        assertEquals(5, second.json().path("pagination").path("total").asInt());
        assertTrue(second.json().path("pagination").path("hasMore").asBoolean());
        assertFalse(platform.get("/api/v1/crm/deals?limit=2&page=3", key).json().path("pagination").path("hasMore").asBoolean());
        // Past the end no row carries the total: it is counted on its own.
        var past = platform.get("/api/v1/crm/deals?limit=2&page=40", key);
        assertEquals(0, past.data().size());
        assertEquals(5, past.json().path("pagination").path("total").asInt());
        assertFalse(past.json().path("pagination").path("hasMore").asBoolean());
    }

    @Test
    void status(TestPlatform platform) {
        assertEquals(Set.of("d1", "d2"), titles(platform, "?status=open"));
        assertEquals(Set.of("d3", "d4", "d5"), titles(platform, "?status=on_hold&status=closed_won&status=closed_lost"));
    }

    @Test
    void stage(TestPlatform platform) {
        assertEquals(Set.of("d2"), titles(platform, "?stage=proposal"));
        assertEquals(Set.of("d1", "d3"), titles(platform, "?stage=discovery&stage=negotiation"));
    }

    @Test
    void assigneeMatchesAssignedTo(TestPlatform platform) {
        assertEquals(Set.of("d1", "d3"), titles(platform, "?assignee=" + ANN));
        assertEquals(Set.of("d1", "d2", "d3", "d4"), titles(platform, "?assignee=" + ANN + "&assignee=" + BOB));
        assertEquals(Set.of(), titles(platform, "?assignee=" + UUID.randomUUID()));
    }

    @Test
    void contactAndCompany(TestPlatform platform) {
        assertEquals(Set.of("d1", "d3", "d5"), titles(platform, "?contact_id=" + contact));
        assertEquals(Set.of("d3", "d4"), titles(platform, "?company_id=" + globex));
    }

    @Test
    void valueBoundsAreInclusiveAndSkipDealsWithoutValue(TestPlatform platform) {
        assertEquals(Set.of("d2", "d3", "d4"), titles(platform, "?value_min=5000"));
        assertEquals(Set.of("d1", "d2"), titles(platform, "?value_max=5000"));
        assertEquals(Set.of("d2", "d3"), titles(platform, "?value_min=5000&value_max=20000"));
        assertEquals(Set.of("d1"), titles(platform, "?value_min=99.5&value_max=100.5"));
        assertEquals(Set.of(), titles(platform, "?value_min=30000&value_max=100"));
    }

    @Test
    void filtersCombineWithAnd(TestPlatform platform) {
        assertEquals(Set.of("d1"), titles(platform, "?status=open&assignee=" + ANN));
        assertEquals(Set.of("d3"), titles(platform, "?assignee=" + ANN + "&value_min=1000&contact_id=" + contact));
        assertEquals(Set.of("d2", "d4"), titles(platform,
                "?assignee=" + BOB + "&status=open&status=closed_won&stage=proposal&stage=closed_won"));
        assertEquals(Set.of("d4"), titles(platform, "?company_id=" + globex + "&status=closed_won&value_max=75000"));
        assertEquals(Set.of(), titles(platform, "?company_id=" + acme + "&stage=negotiation"));
        assertEquals(Set.of("d1"), titles(platform, "?company_id=" + acme + "&contact_id=" + contact
                + "&stage=discovery&status=open&assignee=" + ANN + "&value_min=1&value_max=100&limit=10&page=1"));
    }

    @Test
    void badFilterValuesAre400NamingTheParameter(TestPlatform platform) {
        assertNames(platform.get("/api/v1/crm/deals?status=Open", key), 400, "?status");
        assertNames(platform.get("/api/v1/crm/deals?stage=won", key), 400, "?stage");
        assertNames(platform.get("/api/v1/crm/deals?assignee=bob", key), 400, "?assignee");
        assertNames(platform.get("/api/v1/crm/deals?contact_id=1", key), 400, "?contact_id");
        assertNames(platform.get("/api/v1/crm/deals?company_id=acme", key), 400, "?company_id");
        assertNames(platform.get("/api/v1/crm/deals?value_min=lots", key), 400, "?value_min");
        assertNames(platform.get("/api/v1/crm/deals?value_max=1e", key), 400, "?value_max");
        assertNames(platform.get("/api/v1/crm/deals?contact_id=" + contact + "&contact_id=" + contact, key), 400, "?contact_id");
        assertNames(platform.get("/api/v1/crm/deals?owner=me", key), 400, "?owner");
        assertNames(platform.get("/api/v1/crm/deals?limit=101", key), 400, "?limit");
        assertNames(platform.get("/api/v1/crm/deals?page=0", key), 400, "?page");
    }

    @Test
    void aFilteredListIsNewestFirstAndPagesWithTheFilteredTotal(TestPlatform platform) {
        // The page's ids are chosen before its rows are read (a CTE): its order and slice must be the filter's.
        assertEquals(List.of("d3", "d1"), order(platform, "?assignee=" + ANN + "&value_min=1"));
        assertEquals(List.of("d4", "d2"), order(platform, "?status=open&status=closed_won&value_min=1000"));
        var second = platform.get("/api/v1/crm/deals?status=open&status=on_hold&limit=1&page=2", key);
        assertEquals(List.of("d2"), inOrder(second));
        assertEquals(3, second.json().path("pagination").path("total").asInt());
        assertTrue(second.json().path("pagination").path("hasMore").asBoolean());
        var single = platform.get("/api/v1/crm/deals?status=open&stage=proposal&value_min=10&value_max=5000&limit=1", key);
        assertEquals(List.of("d2"), inOrder(single));
        assertEquals(1, single.json().path("pagination").path("total").asInt());
    }

    private static List<String> order(TestPlatform platform, String query) {
        var response = platform.get("/api/v1/crm/deals" + query, key);
        assertEquals(200, response.status(), response.body());
        return inOrder(response);
    }

    private static List<String> inOrder(TestResponse response) {
        List<String> order = new ArrayList<>();
        response.data().forEach(d -> order.add(d.path("title").asText()));
        return order;
    }

    @Test
    void theListToolFiltersTheSameWay(TestPlatform platform) {
        var result = platform.callTool(key, "crm_list_deals",
                "{\"assignee\":[\"" + BOB + "\"],\"status\":[\"open\",\"closed_won\"],\"value_min\":6000}");
        JsonNode data = dev.lnp.api.Json.mapper().valueToTree(result.data());
        assertEquals(1, data.path("items").size(), data.toString());
        assertEquals("d4", data.path("items").get(0).path("title").asText());
        assertEquals(1, data.path("pagination").path("total").asInt());
        assertEquals("read", result.entities().get(0).action());
        assertEquals("deal", result.entities().get(0).type());
    }
}
