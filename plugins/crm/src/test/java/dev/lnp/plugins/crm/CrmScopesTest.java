package dev.lnp.plugins.crm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.core.auth.Connections;
import dev.lnp.core.auth.ScopeCatalog;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Reads need the read scope, writes the write scope, over REST and MCP. */
@PlatformTest(plugins = "crm")
class CrmScopesTest {

    private static UUID workspace;
    private static String readOnly;
    private static String dealId;
    private static String companyId;

    @BeforeAll
    static void keys(TestPlatform platform) {
        workspace = platform.createWorkspace("scopes");
        readOnly = platform.connections().create(new Connections.NewConnection(workspace, "ro", List.of(),
                ScopeCatalog.READ_ONLY, null, null)).key();
        dealId = platform.post("/api/v1/crm/deals", platform.fullAccessKey(workspace), "{\"title\":\"Scoped\"}")
                .data().path("id").asText();
        companyId = platform.post("/api/v1/crm/companies", platform.fullAccessKey(workspace),
                "{\"name\":\"Scoped\"}").data().path("id").asText();
    }

    private static void assertForbidden(TestResponse response) {
        assertEquals(403, response.status(), response.body());
    }

    @Test
    void theCrmDeclaresAReadAndAWriteScopePerEntity(TestPlatform platform) {
        assertEquals(List.of("companies.read", "companies.write", "contacts.read", "contacts.write", "deals.read",
                "deals.write"),
                platform.platform().registry().contributionsOf("crm").orElseThrow().scopes().stream()
                        .map(s -> s.name()).sorted().toList());
    }

    @Test
    void aReadOnlyKeyReadsButCannotWrite(TestPlatform platform) {
        assertEquals(200, platform.get("/api/v1/crm/contacts", readOnly).status());
        assertEquals(200, platform.get("/api/v1/crm/deals", readOnly).status());
        assertEquals(200, platform.get("/api/v1/crm/deals/" + dealId, readOnly).status());
        assertForbidden(platform.post("/api/v1/crm/contacts", readOnly, "{\"email\":\"ro@example.com\"}"));
        assertForbidden(platform.post("/api/v1/crm/deals", readOnly, "{\"title\":\"ro\"}"));
        assertForbidden(platform.patch("/api/v1/crm/deals/" + dealId, readOnly, "{\"title\":\"ro\"}"));
        assertForbidden(platform.delete("/api/v1/crm/deals/" + dealId, readOnly));
        assertEquals(200, platform.get("/api/v1/crm/companies", readOnly).status());
        assertEquals(200, platform.get("/api/v1/crm/companies/" + companyId, readOnly).status());
        assertForbidden(platform.post("/api/v1/crm/companies", readOnly, "{\"name\":\"ro\"}"));
        assertForbidden(platform.patch("/api/v1/crm/companies/" + companyId, readOnly, "{\"name\":\"ro\"}"));
        assertForbidden(platform.delete("/api/v1/crm/companies/" + companyId, readOnly));
        for (String tool : List.of("crm_create_contact", "crm_update_contact", "crm_delete_contact",
                "crm_create_deal", "crm_update_deal", "crm_delete_deal", "crm_create_company", "crm_update_company")) {
            assertEquals(403, assertThrows(ApiProblem.class, () -> platform.callTool(readOnly, tool, "{}")).status(), tool);
        }
        int stored = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM crm.contacts WHERE workspace_id = :ws AND email = 'ro@example.com'").bind("ws", workspace)
                .mapTo(Integer.class).one());
        assertEquals(0, stored);
    }

    @Test
    void aKeyWithoutTheReadScopeCannotRead(TestPlatform platform) {
        String dealsOnly = platform.key(workspace, "deals.read", "deals.write");
        String contactsOnly = platform.key(workspace, "contacts.read", "contacts.write");
        assertForbidden(platform.get("/api/v1/crm/contacts", dealsOnly));
        assertForbidden(platform.get("/api/v1/crm/deals", contactsOnly));
        assertForbidden(platform.get("/api/v1/crm/deals/" + dealId, contactsOnly));
        assertEquals(403, assertThrows(ApiProblem.class,
                () -> platform.callTool(dealsOnly, "crm_list_contacts", "{}")).status());
        assertEquals(403, assertThrows(ApiProblem.class,
                () -> platform.callTool(dealsOnly, "crm_search_contacts", "{\"query\":\"x\"}")).status());
        assertEquals(403, assertThrows(ApiProblem.class,
                () -> platform.callTool(contactsOnly, "crm_get_deal", "{\"id\":\"" + dealId + "\"}")).status());
        assertForbidden(platform.get("/api/v1/crm/companies", contactsOnly));
        assertForbidden(platform.get("/api/v1/crm/companies/" + companyId, dealsOnly));
        assertEquals(403, assertThrows(ApiProblem.class,
                () -> platform.callTool(contactsOnly, "crm_list_companies", "{}")).status());
        assertEquals(403, assertThrows(ApiProblem.class, () -> platform.callTool(contactsOnly, "crm_get_company",
                "{\"id\":\"" + companyId + "\"}")).status());
        assertEquals(403, assertThrows(ApiProblem.class, () -> platform.callTool(dealsOnly, "crm_search_companies",
                "{\"query\":\"x\"}")).status());
        assertEquals(403, assertThrows(ApiProblem.class, () -> platform.callTool(dealsOnly, "crm_get_contact",
                "{\"id\":\"" + companyId + "\"}")).status());
    }

    @Test
    void aWriteScopeAloneDoesNotGrantReading(TestPlatform platform) {
        String writeOnly = platform.key(workspace, "contacts.write", "deals.write", "companies.write");
        assertEquals(201, platform.post("/api/v1/crm/contacts", writeOnly, "{\"email\":\"w@example.com\"}").status());
        assertEquals(201, platform.post("/api/v1/crm/companies", writeOnly, "{\"name\":\"w\"}").status());
        assertForbidden(platform.get("/api/v1/crm/contacts", writeOnly));
        assertForbidden(platform.get("/api/v1/crm/deals/" + dealId, writeOnly));
        assertForbidden(platform.get("/api/v1/crm/companies/" + companyId, writeOnly));
    }

    @Test
    void withoutAKeyEveryRouteIs401(TestPlatform platform) {
        assertEquals(401, platform.get("/api/v1/crm/contacts", null).status());
        assertEquals(401, platform.post("/api/v1/crm/contacts", null, "{\"email\":\"x@example.com\"}").status());
        assertEquals(401, platform.get("/api/v1/crm/deals/" + dealId, null).status());
        assertEquals(401, platform.get("/api/v1/crm/companies", null).status());
        assertEquals(401, platform.post("/api/v1/crm/companies", null, "{\"name\":\"x\"}").status());
        assertEquals(401, platform.patch("/api/v1/crm/companies/" + companyId, null, "{\"name\":\"x\"}").status());
        assertEquals(401, platform.delete("/api/v1/crm/companies/" + companyId, null).status());
    }
}
