package dev.lnp.plugins.crm;

import static dev.lnp.plugins.crm.Problems.assertNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** GET /api/v1/crm/companies: newest first, pages with totals, tokenized accent- and case-insensitive search. */
@PlatformTest(plugins = "crm")
class CompanyListTest {

    private static String key;

    @BeforeAll
    static void companies(TestPlatform platform) {
        key = platform.key(platform.createWorkspace("company-list"), "companies.read", "companies.write");
        create(platform, "{\"name\":\"Société Générale Tech\",\"domain\":\"sg-tech.fr\",\"industry\":\"Banking\","
                + "\"city\":\"Paris\",\"country\":\"France\"}");
        create(platform, "{\"name\":\"Åberg Logistics\",\"domain\":\"aberg.se\",\"industry\":\"Logistics\","
                + "\"city\":\"Malmö\",\"country\":\"Sweden\"}");
        create(platform, "{\"name\":\"Initech\",\"industry\":\"Software\",\"city\":\"Austin\",\"country\":\"USA\"}");
        create(platform, "{\"name\":\"100% Under_Score\"}");
        // Another workspace's company matches the searches below but must never be found.
        String other = platform.key(platform.createWorkspace("company-list-other"), "companies.write");
        platform.post("/api/v1/crm/companies", other, "{\"name\":\"Initech Paris\",\"city\":\"Paris\"}");
    }

    private static void create(TestPlatform platform, String body) {
        TestResponse response = platform.post("/api/v1/crm/companies", key, body);
        assertEquals(201, response.status(), response.body());
    }

    private static Set<String> search(TestPlatform platform, String words) {
        TestResponse response = platform.get("/api/v1/crm/companies?search="
                + URLEncoder.encode(words, StandardCharsets.UTF_8), key);
        assertEquals(200, response.status(), response.body());
        Set<String> names = new TreeSet<>();
        response.data().forEach(c -> names.add(c.path("name").asText()));
        assertEquals(names.size(), response.json().path("pagination").path("total").asInt(), response.body());
        return names;
    }

    @Test
    void listsEveryCompanyOfTheWorkspaceNewestFirstInPages(TestPlatform platform) {
        TestResponse all = platform.get("/api/v1/crm/companies", key);
        assertEquals(200, all.status(), all.body());
        List<String> names = new ArrayList<>();
        all.data().forEach(c -> names.add(c.path("name").asText()));
        assertEquals(List.of("100% Under_Score", "Initech", "Åberg Logistics", "Société Générale Tech"), names);
        JsonNode pagination = all.json().path("pagination");
        assertEquals(4, pagination.path("total").asInt());
        assertEquals(1, pagination.path("page").asInt());
        assertEquals(50, pagination.path("limit").asInt());

        TestResponse second = platform.get("/api/v1/crm/companies?page=2&limit=3", key);
        assertEquals(1, second.data().size());
        assertEquals("Société Générale Tech", second.data().get(0).path("name").asText());
        assertEquals(4, second.json().path("pagination").path("total").asInt());
        assertTrue(!second.json().path("pagination").path("hasMore").asBoolean(), second.body());
        TestResponse beyond = platform.get("/api/v1/crm/companies?page=9", key);
        assertEquals(0, beyond.data().size());
        assertEquals(4, beyond.json().path("pagination").path("total").asInt(), "a page past the end still counts");
    }

    @Test
    void searchMatchesEveryWordInNameDomainIndustryCityOrCountryIgnoringCaseAndAccents(TestPlatform platform) {
        assertEquals(Set.of("Société Générale Tech"), search(platform, "societe generale"));
        assertEquals(Set.of("Åberg Logistics"), search(platform, "ABERG malmo"));
        assertEquals(Set.of("Åberg Logistics"), search(platform, "aberg.se"));
        assertEquals(Set.of("Initech"), search(platform, "software usa"));
        assertEquals(Set.of("Société Générale Tech"), search(platform, "paris"));
        assertEquals(Set.of(), search(platform, "initech paris"), "words must all match one company");
        assertEquals(Set.of("100% Under_Score"), search(platform, "100%"));
        assertEquals(Set.of(), search(platform, "1_0"), "_ is matched literally");
    }

    @Test
    void badListParametersAre400NamingThem(TestPlatform platform) {
        assertNames(platform.get("/api/v1/crm/companies?limit=101", key), 400, "?limit");
        assertNames(platform.get("/api/v1/crm/companies?page=0", key), 400, "?page");
        assertNames(platform.get("/api/v1/crm/companies?q=acme", key), 400, "?q");
        assertNames(platform.get("/api/v1/crm/companies?search=" + "w+".repeat(11), key), 400, "?search");
    }
}
