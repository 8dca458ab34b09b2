package dev.lnp.plugins.crm;

import static dev.lnp.plugins.crm.Problems.assertNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * company_id on contacts and deals names a company of the workspace; deleting a company keeps its contacts and
 * deals without it; ids stored before companies existed are kept (V7__company_references, docs/crm.md).
 */
@PlatformTest(plugins = "crm", config = "lnp.webhooks.dispatch=false")
class CompanyReferencesTest {

    private static UUID workspace;
    private static String key;
    private static String otherKey;

    @BeforeAll
    static void keys(TestPlatform platform) {
        workspace = platform.createWorkspace("company-refs");
        key = platform.fullAccessKey(workspace);
        otherKey = platform.fullAccessKey(platform.createWorkspace("company-refs-other"));
    }

    private static String company(TestPlatform platform, String apiKey, String name) {
        TestResponse response = platform.post("/api/v1/crm/companies", apiKey, "{\"name\":\"" + name + "\"}");
        assertEquals(201, response.status(), response.body());
        return response.data().path("id").asText();
    }

    private static String contactWith(String email, String companyId) {
        return "{\"email\":\"" + email + "\",\"company_id\":\"" + companyId + "\"}";
    }

    @Test
    void contactsAndDealsNameACompanyOfTheirWorkspace(TestPlatform platform) {
        String acme = company(platform, key, "Acme");
        TestResponse contact = platform.post("/api/v1/crm/contacts", key, contactWith("ref@acme.com", acme));
        assertEquals(201, contact.status(), contact.body());
        assertEquals(acme, contact.json().path("company_id").asText());
        TestResponse deal = platform.post("/api/v1/crm/deals", key, "{\"title\":\"Ref\",\"company_id\":\"" + acme + "\"}");
        assertEquals(201, deal.status(), deal.body());
        assertEquals(acme, deal.data().path("company_id").asText());
    }

    @Test
    void aCompanyIdThatNamesNoCompanyOfTheWorkspaceIs422NamingTheField(TestPlatform platform) {
        String theirs = company(platform, otherKey, "Theirs");
        String mine = company(platform, key, "Mine");
        String deal = platform.post("/api/v1/crm/deals", key, "{\"title\":\"Kept\"}").data().path("id").asText();
        String contact = platform.post("/api/v1/crm/contacts", key, "{\"email\":\"kept@example.com\"}").json()
                .path("id").asText();
        for (String id : List.of(theirs, UUID.randomUUID().toString())) {
            assertUnknownCompany(platform.post("/api/v1/crm/contacts", key, contactWith("x-" + id + "@example.com", id)));
            assertUnknownCompany(platform.post("/api/v1/crm/deals", key, "{\"title\":\"x\",\"company_id\":\"" + id + "\"}"));
            assertUnknownCompany(platform.patch("/api/v1/crm/deals/" + deal, key, "{\"company_id\":\"" + id + "\"}"));
            assertNames(assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_update_contact",
                    "{\"id\":\"" + contact + "\",\"company_id\":\"" + id + "\"}")), 422, "/company_id");
            assertNames(assertThrows(ApiProblem.class, () -> platform.callTool(key, "crm_create_deal",
                    "{\"title\":\"x\",\"company_id\":\"" + id + "\"}")), 422, "/company_id");
        }
        // Refused writes changed nothing; a company of the workspace is then accepted by the same routes.
        assertTrue(platform.get("/api/v1/crm/deals/" + deal, key).data().path("company_id").isNull());
        assertEquals(0, platform.get("/api/v1/crm/contacts?search=x-", key).data().size());
        assertEquals(mine, platform.patch("/api/v1/crm/deals/" + deal, key, "{\"company_id\":\"" + mine + "\"}")
                .data().path("company_id").asText());
        assertEquals(mine, tool(platform, "crm_update_contact", "{\"id\":\"" + contact + "\",\"company_id\":\""
                + mine + "\"}").path("company_id").asText());
        // An empty string or null still means no company.
        assertEquals(201, platform.post("/api/v1/crm/contacts", key, "{\"email\":\"none1@example.com\",\"company_id\":\"\"}")
                .status());
        assertEquals(201, platform.post("/api/v1/crm/contacts", key, "{\"email\":\"none2@example.com\",\"company_id\":null}")
                .status());
    }

    private static void assertUnknownCompany(TestResponse response) {
        JsonNode error = assertNames(response, 422, "/company_id");
        assertEquals("exists", error.path("rule").asText(), response.body());
        assertEquals("company_id does not name a company of this workspace", error.path("message").asText());
    }

    @Test
    void deletingACompanyKeepsItsContactsAndDealsWithoutIt(TestPlatform platform) {
        String doomed = company(platform, key, "Doomed");
        String kept = company(platform, key, "Kept");
        String contact = platform.post("/api/v1/crm/contacts", key, contactWith("staff@doomed.com", doomed)).json()
                .path("id").asText();
        String bystander = platform.post("/api/v1/crm/contacts", key, contactWith("staff@kept.com", kept)).json()
                .path("id").asText();
        String deal = platform.post("/api/v1/crm/deals", key, "{\"title\":\"Doomed deal\",\"company_id\":\"" + doomed
                + "\",\"contact_id\":\"" + contact + "\"}").data().path("id").asText();

        TestResponse deleted = platform.delete("/api/v1/crm/companies/" + doomed, key);
        assertEquals(200, deleted.status(), deleted.body());

        JsonNode orphanDeal = platform.get("/api/v1/crm/deals/" + deal, key).data();
        assertTrue(orphanDeal.path("company_id").isNull(), orphanDeal.toString());
        assertEquals(contact, orphanDeal.path("contact_id").asText());
        assertTrue(contactById(platform, contact).path("company_id").isNull());
        assertEquals(kept, contactById(platform, bystander).path("company_id").asText());
        assertEquals(List.of("crm.company.deleted"), platform.jdbi().withHandle(h -> h.createQuery("""
                        SELECT event_name FROM lnp_core.outbox WHERE workspace_id = :ws
                           AND seq > (SELECT max(seq) FROM lnp_core.outbox WHERE workspace_id = :ws
                                         AND event_name = 'crm.deal.created' AND payload->>'id' = :deal)
                         ORDER BY seq""").bind("ws", workspace).bind("deal", deal).mapTo(String.class).list()),
                "the detached contact and deal get no event of their own");
    }

    private static JsonNode contactById(TestPlatform platform, String id) {
        return tool(platform, "crm_get_contact", "{\"id\":\"" + id + "\"}");
    }

    private static JsonNode tool(TestPlatform platform, String name, String arguments) {
        return Json.mapper().valueToTree(platform.callTool(key, name, arguments).data());
    }

    /**
     * Rows written before companies existed are simulated with the foreign-key triggers off (what the NOT VALID
     * constraints leave unchecked): they keep their id, are read and changed as before, and only a new company_id
     * is checked.
     */
    @Test
    void companyIdsStoredBeforeCompaniesExistedAreKept(TestPlatform platform) {
        UUID legacy = UUID.randomUUID();
        UUID contact = platform.jdbi().inTransaction(h -> {
            h.execute("SET LOCAL session_replication_role = replica");
            UUID id = h.createQuery("""
                            INSERT INTO crm.contacts (workspace_id, email, company_id) VALUES (:ws, 'legacy@old.com', :company)
                            RETURNING id""").bind("ws", workspace).bind("company", legacy).mapTo(UUID.class).one();
            h.createUpdate("""
                    INSERT INTO crm.contact_counts (workspace_id, status, stripe, n) VALUES (:ws, 'active', 0, 1)
                    ON CONFLICT (workspace_id, status, stripe) DO UPDATE SET n = contact_counts.n + 1""")
                    .bind("ws", workspace).execute();
            return id;
        });
        UUID deal = platform.jdbi().inTransaction(h -> {
            h.execute("SET LOCAL session_replication_role = replica");
            return h.createQuery("INSERT INTO crm.deals (workspace_id, title, company_id) VALUES (:ws, 'Legacy', :company) "
                    + "RETURNING id").bind("ws", workspace).bind("company", legacy).mapTo(UUID.class).one();
        });

        assertEquals(legacy.toString(), contactById(platform, contact.toString()).path("company_id").asText());
        TestResponse renamed = platform.patch("/api/v1/crm/deals/" + deal, key, "{\"title\":\"Legacy, renamed\"}");
        assertEquals(200, renamed.status(), renamed.body());
        assertEquals(legacy.toString(), renamed.data().path("company_id").asText());
        JsonNode changed = tool(platform, "crm_update_contact", "{\"id\":\"" + contact + "\",\"city\":\"Lyon\"}");
        assertEquals(legacy.toString(), changed.path("company_id").asText());
        assertUnknownCompany(platform.post("/api/v1/crm/deals", key, "{\"title\":\"New\",\"company_id\":\"" + legacy + "\"}"));

        List<Boolean> validated = platform.jdbi().withHandle(h -> h.createQuery("""
                        SELECT convalidated FROM pg_constraint
                         WHERE conname IN ('contacts_company', 'deals_company') AND connamespace = 'crm'::regnamespace""")
                .mapTo(Boolean.class).list());
        assertEquals(List.of(false, false), validated, "existing rows are not checked: the constraints are NOT VALID");
    }
}
