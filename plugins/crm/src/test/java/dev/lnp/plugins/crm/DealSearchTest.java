package dev.lnp.plugins.crm;

import static dev.lnp.plugins.crm.Problems.assertNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Deals found by the words of their title: {@code GET /api/v1/crm/deals?search=}, the {@code crm_list_deals} tool and
 * the deals page take the same parameter from deal-list.json, and answer alike.
 */
@PlatformTest(plugins = "crm")
class DealSearchTest {

    private static UUID workspace;
    private static String key;

    @BeforeAll
    static void deals(TestPlatform platform) {
        workspace = platform.createWorkspace("deal-search");
        key = platform.key(workspace, "deals.read", "deals.write", "mcp.use");
        for (String title : new String[] {"Robot arms for Zürich", "Robot legs", "Café renovation", "50% off_deal"}) {
            assertEquals(201, platform.post("/api/v1/crm/deals", key, "{\"title\":\"" + title + "\"}").status());
        }
        assertEquals(201, platform.post("/api/v1/crm/deals", key,
                "{\"title\":\"Robot arms, won\",\"stage\":\"closed_won\",\"status\":\"closed_won\"}").status());
        String other = platform.key(platform.createWorkspace("deal-search-other"), "deals.write");
        assertEquals(201, platform.post("/api/v1/crm/deals", other, "{\"title\":\"Robot arms elsewhere\"}").status());
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
    void everyWordMustBeInTheTitleWhateverItsCaseAndAccents(TestPlatform platform) {
        assertEquals(Set.of("Robot arms for Zürich", "Robot arms, won", "Robot legs"), titles(platform, "?search=robot"));
        assertEquals(Set.of("Robot arms for Zürich", "Robot arms, won"), titles(platform, "?search=ARMS+robot"));
        assertEquals(Set.of("Robot arms for Zürich"), titles(platform, "?search=zurich"));
        assertEquals(Set.of("Café renovation"), titles(platform, "?search=cafe"));
        assertEquals(Set.of(), titles(platform, "?search=robot+cafe"));
        assertEquals(Set.of("50% off_deal"), titles(platform, "?search=50%25"), "% is a character, not a wildcard");
        assertEquals(Set.of(), titles(platform, "?search=o_f"),
                "_ is a character, not a wildcard (which would match off)");
        assertEquals(5, titles(platform, "?search=++").size(), "blank words search nothing");
    }

    @Test
    void searchCombinesWithTheOtherFiltersAndPages(TestPlatform platform) {
        assertEquals(Set.of("Robot arms, won"), titles(platform, "?search=robot&status=closed_won"));
        assertEquals(Set.of("Robot arms for Zürich", "Robot legs"), titles(platform, "?search=robot&status=open"));
        var first = platform.get("/api/v1/crm/deals?search=robot&limit=2", key);
        assertEquals(2, first.data().size());
        assertEquals(3, first.json().path("pagination").path("total").asInt());
        assertTrue(first.json().path("pagination").path("hasMore").asBoolean());
    }

    @Test
    void anotherWorkspacesDealsAreNeverFound(TestPlatform platform) {
        assertFalse(titles(platform, "?search=elsewhere").contains("Robot arms elsewhere"));
        String theirs = platform.key(platform.createWorkspace("deal-search-third"), "deals.read");
        var response = platform.get("/api/v1/crm/deals?search=robot", theirs);
        assertEquals(0, response.json().path("pagination").path("total").asInt(), response.body());
    }

    @Test
    void badSearchesAre400NamingTheField(TestPlatform platform) {
        JsonNode tooMany = assertNames(platform.get("/api/v1/crm/deals?search=a+b+c+d+e+f+g+h+i+j+k", key), 400,
                "?search");
        assertTrue(tooMany.path("message").asText().contains("at most 10 words"), tooMany.toString());
        assertNames(platform.get("/api/v1/crm/deals?search=a&search=b", key), 400, "?search");
        assertNames(platform.get("/api/v1/crm/deals?search=" + "x".repeat(501), key), 400, "?search");
        assertNames(platform.get("/api/v1/crm/deals?search=robot&stage=lunch", key), 400, "?stage");
    }

    @Test
    void theListToolTakesTheSameSearch(TestPlatform platform) {
        var result = platform.callTool(key, "crm_list_deals", "{\"search\":\"robot legs\"}");
        JsonNode items = Json.mapper().valueToTree(result.data()).path("items");
        assertEquals(1, items.size(), items.toString());
        assertEquals("Robot legs", items.path(0).path("title").asText());
        ApiProblem tooMany = assertThrows(ApiProblem.class,
                () -> platform.callTool(key, "crm_list_deals", "{\"search\":\"a b c d e f g h i j k\"}"));
        assertNames(tooMany, 422, "/search");
    }

    @Test
    void theDealsPageHasTheSearchBox(TestPlatform platform) {
        TestPerson member = platform.person(workspace, "member");
        String page = member.get("/app/crm/deals?search=robot+legs").body();
        assertTrue(page.contains("name=\"search\""), "the search box: " + page);
        assertTrue(page.contains(">Robot legs</a>") && !page.contains(">Robot arms for Zürich</a>"), page);
        var refused = member.get("/app/crm/deals?search=a+b+c+d+e+f+g+h+i+j+k");
        assertEquals(400, refused.status(), refused.body());
        assertTrue(refused.body().contains("search has more than 10 words."), refused.body());
    }
}
