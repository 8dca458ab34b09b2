package dev.lnp.plugins.crm;

import static dev.lnp.plugins.crm.Problems.assertNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** GET /api/v1/crm/contacts: tokenized, accent- and case-insensitive search, status filters, totals. */
@PlatformTest(plugins = "crm")
class ContactListTest {

    private static String key;

    @BeforeAll
    static void contacts(TestPlatform platform) {
        key = platform.key(platform.createWorkspace("contact-list"), "contacts.read", "contacts.write");
        create(platform, """
                {"email":"jose.garcia@acme.com","first_name":"José","last_name":"García","company_name":"Acme Iberia",
                 "job_title":"Head of Sales","phone":"+34 600 111 222","status":"active"}""");
        create(platform, """
                {"email":"zoe@globex.com","first_name":"Zoë","last_name":"Åberg","company_name":"Globex",
                 "job_title":"CTO","phone":"+46 70 555 0101","status":"pending"}""");
        create(platform, """
                {"email":"sam@initech.com","first_name":"Sam","last_name":"Lumbergh","company_name":"Initech",
                 "job_title":"Sales engineer","status":"blocked"}""");
        create(platform, """
                {"email":"percent@odd.com","first_name":"Hundred%","last_name":"Under_Score","status":"inactive"}""");
        // Another workspace's contact matches the searches below but must never be found.
        String other = platform.key(platform.createWorkspace("contact-list-other"), "contacts.write");
        platform.post("/api/v1/crm/contacts", other, "{\"email\":\"jose@elsewhere.com\",\"first_name\":\"José\"}");
    }

    private static void create(TestPlatform platform, String body) {
        var response = platform.post("/api/v1/crm/contacts", key, body);
        assertEquals(201, response.status(), response.body());
    }

    private static Set<String> emails(TestPlatform platform, String query) {
        var response = platform.get("/api/v1/crm/contacts" + query, key);
        assertEquals(200, response.status(), response.body());
        Set<String> emails = new TreeSet<>();
        response.data().forEach(c -> emails.add(c.path("email").asText()));
        assertEquals(emails.size(), response.json().path("pagination").path("total").asInt(), response.body());
        return emails;
    }

    private static Set<String> search(TestPlatform platform, String words) {
        return emails(platform, "?search=" + URLEncoder.encode(words, StandardCharsets.UTF_8));
    }

    @Test
    void accentsAndCaseAreIgnoredBothWays(TestPlatform platform) {
        assertEquals(Set.of("jose.garcia@acme.com"), search(platform, "jose"));
        assertEquals(Set.of("jose.garcia@acme.com"), search(platform, "JOSÉ garcia"));
        assertEquals(Set.of("zoe@globex.com"), search(platform, "zoe aberg"));
        assertEquals(Set.of("zoe@globex.com"), search(platform, "ÅBERG"));
    }

    @Test
    void everyWordMustMatchSomeField(TestPlatform platform) {
        assertEquals(Set.of("jose.garcia@acme.com", "sam@initech.com"), search(platform, "sales"));
        assertEquals(Set.of("jose.garcia@acme.com"), search(platform, "sales acme"));
        assertEquals(Set.of("sam@initech.com"), search(platform, "  Sales   engineer  initech "));
        assertEquals(Set.of(), search(platform, "sales globex"));
    }

    @Test
    void searchesEmailFragmentsCompanyJobTitleAndPhone(TestPlatform platform) {
        assertEquals(Set.of("zoe@globex.com"), search(platform, "zoe@glo"));
        assertEquals(Set.of("jose.garcia@acme.com"), search(platform, "garcia@acme.co"));
        assertEquals(Set.of("sam@initech.com"), search(platform, "initech"));
        assertEquals(Set.of("zoe@globex.com"), search(platform, "cto"));
        assertEquals(Set.of("zoe@globex.com"), search(platform, "555 0101"));
        assertEquals(Set.of("jose.garcia@acme.com"), search(platform, "+34"));
    }

    @Test
    void likeWildcardsInTheSearchAreLiteral(TestPlatform platform) {
        assertEquals(Set.of("percent@odd.com"), search(platform, "hundred%"));
        assertEquals(Set.of("percent@odd.com"), search(platform, "under_score"));
        assertEquals(Set.of("percent@odd.com"), search(platform, "%"), "a literal percent sign, not any text");
        assertEquals(Set.of(), search(platform, "s_m"));
    }

    @Test
    void statusFiltersAloneRepeatedAndWithSearch(TestPlatform platform) {
        assertEquals(Set.of("jose.garcia@acme.com"), emails(platform, "?status=active"));
        assertEquals(Set.of("zoe@globex.com", "sam@initech.com"), emails(platform, "?status=pending&status=blocked"));
        assertEquals(4, emails(platform, "").size());
        assertEquals(4, emails(platform, "?status=active&status=inactive&status=blocked&status=pending").size());
        assertEquals(Set.of("sam@initech.com"), emails(platform, "?search=sales&status=blocked"));
        assertEquals(Set.of(), emails(platform, "?search=sales&status=pending"));
    }

    @Test
    void badQueriesAre400NamingTheParameter(TestPlatform platform) {
        assertNames(platform.get("/api/v1/crm/contacts?status=Active", key), 400, "?status");
        assertNames(platform.get("/api/v1/crm/contacts?status=archived", key), 400, "?status");
        assertNames(platform.get("/api/v1/crm/contacts?contact_type=lead", key), 400, "?contact_type");
        assertNames(platform.get("/api/v1/crm/contacts?limit=0", key), 400, "?limit");
        assertNames(platform.get("/api/v1/crm/contacts?search=a+b+c+d+e+f+g+h+i+j+k", key), 400, "?search");
    }

    @Test
    void pagesAreStableAndCarryTheTotal(TestPlatform platform) {
        var all = platform.get("/api/v1/crm/contacts", key).data();
        var second = platform.get("/api/v1/crm/contacts?limit=3&page=2", key);
        assertEquals(1, second.data().size());
        assertEquals(all.get(3), second.data().get(0));
        assertEquals(4, second.json().path("pagination").path("total").asInt());
        assertTrue(platform.get("/api/v1/crm/contacts?limit=3", key).json().path("pagination").path("hasMore").asBoolean());
    }

    @Test
    void aPageWithNoRowStillCarriesTheTotal(TestPlatform platform) {
        // The total rides on the page's rows; a page past the end has none, so it is counted on its own.
        var past = platform.get("/api/v1/crm/contacts?limit=3&page=9", key);
        assertEquals(200, past.status(), past.body());
        assertEquals(0, past.data().size());
        assertEquals(4, past.json().path("pagination").path("total").asInt());
        assertFalse(past.json().path("pagination").path("hasMore").asBoolean());
        var searchedPast = platform.get("/api/v1/crm/contacts?search=sales&limit=1&page=50", key);
        assertEquals(0, searchedPast.data().size());
        assertEquals(platform.get("/api/v1/crm/contacts?search=sales", key).data().size(),
                searchedPast.json().path("pagination").path("total").asInt());
        var none = platform.get("/api/v1/crm/contacts?search=nobodyhasthisword", key);
        assertEquals(0, none.json().path("pagination").path("total").asInt());
        var tool = dev.lnp.api.Json.mapper().valueToTree(platform.callTool(key, "crm_list_contacts", "{\"page\":9,\"limit\":3}").data());
        assertEquals(4, ((com.fasterxml.jackson.databind.JsonNode) tool).path("pagination").path("total").asInt(), tool.toString());
    }

    @Test
    void aSearchedPageCarriesTheSearchTotal(TestPlatform platform) {
        var first = platform.get("/api/v1/crm/contacts?search=sales&limit=1", key);
        int matching = platform.get("/api/v1/crm/contacts?search=sales&limit=100", key).data().size();
        assertTrue(matching > 1, "the fixture has several sales contacts");
        assertEquals(matching, first.json().path("pagination").path("total").asInt());
        assertTrue(first.json().path("pagination").path("hasMore").asBoolean());
    }

    @Test
    void theSearchToolFindsTheSameContacts(TestPlatform platform) {
        var result = platform.callTool(key, "crm_search_contacts", "{\"query\":\"JOSE sales\"}");
        var data = dev.lnp.api.Json.mapper().valueToTree(result.data());
        assertEquals(1, ((com.fasterxml.jackson.databind.JsonNode) data).path("items").size(), data.toString());
        assertEquals("contact", result.entities().get(0).type());
        assertEquals("read", result.entities().get(0).action());
        var listed = platform.callTool(key, "crm_list_contacts", "{\"status\":[\"pending\"],\"limit\":10}");
        com.fasterxml.jackson.databind.JsonNode page = dev.lnp.api.Json.mapper().valueToTree(listed.data());
        assertEquals("zoe@globex.com", page.path("items").get(0).path("email").asText());
        assertEquals(1, page.path("pagination").path("total").asInt());
    }
}
