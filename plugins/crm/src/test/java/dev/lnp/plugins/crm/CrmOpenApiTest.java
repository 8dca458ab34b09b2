package dev.lnp.plugins.crm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.HttpMethod;
import dev.lnp.testkit.OpenApiContract;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code /openapi/v1.json} lists every CRM route as declared: companies beside contacts and deals, each success typed
 * by the schema the route returns; and real answers of the routes match what it declares ({@link OpenApiContract}).
 */
@PlatformTest(plugins = "crm")
class CrmOpenApiTest {

    private static final Map<String, String> COMPANY_OPERATIONS = Map.of(
            "GET /api/v1/crm/companies", "getCrmCompanies companies.read",
            "POST /api/v1/crm/companies", "postCrmCompanies companies.write",
            "GET /api/v1/crm/companies/{id}", "getCrmCompaniesById companies.read",
            "PATCH /api/v1/crm/companies/{id}", "patchCrmCompaniesById companies.write",
            "DELETE /api/v1/crm/companies/{id}", "deleteCrmCompaniesById companies.write");

    private static JsonNode document(TestPlatform platform) {
        TestResponse response = platform.get("/openapi/v1.json", null);
        assertEquals(200, response.status(), response.body());
        return response.json();
    }

    private static JsonNode operation(JsonNode doc, String method, String path) {
        return doc.path("paths").path(path).path(method.toLowerCase(Locale.ROOT));
    }

    @Test
    void everyCompanyRouteIsListedWithItsOperationIdScopeAndTag(TestPlatform platform) {
        JsonNode doc = document(platform);
        COMPANY_OPERATIONS.forEach((route, expected) -> {
            String[] parts = route.split(" ");
            JsonNode op = operation(doc, parts[0], parts[1]);
            assertTrue(op.isObject(), route + " is listed");
            assertEquals(expected.split(" ")[0], op.path("operationId").asText(), route);
            assertEquals(expected.split(" ")[1], op.at("/security/0/bearer/0").asText(), route);
            assertEquals("crm", op.at("/tags/0").asText(), route);
            assertTrue(op.path("responses").has("401") && op.path("responses").has("404"), route);
        });
        assertTrue(operation(doc, "GET", "/api/v1/crm/contacts").isObject());
        assertTrue(operation(doc, "PATCH", "/api/v1/crm/deals/{id}").isObject());
    }

    @Test
    void theBodiesAreTheSchemasThatValidateAndTheListTakesPagesAndSearch(TestPlatform platform) {
        JsonNode doc = document(platform);
        assertEquals("#/components/schemas/PostCrmCompaniesBody", operation(doc, "POST", "/api/v1/crm/companies")
                .at("/requestBody/content/application~1json/schema/$ref").asText());
        assertEquals(Json.resource(CrmPlugin.class, "schemas/company-create.json"),
                doc.at("/components/schemas/PostCrmCompaniesBody"));
        JsonNode patch = platform.platform().registry().routes().stream()
                .filter(r -> r.spec().method() == HttpMethod.PATCH && r.spec().path().equals("/api/v1/crm/companies/{id}"))
                .findFirst().orElseThrow().spec().bodySchema();
        assertEquals(patch, doc.at("/components/schemas/PatchCrmCompaniesByIdBody"));
        assertEquals("201", operation(doc, "POST", "/api/v1/crm/companies").path("responses").fieldNames().next());

        List<String> params = new ArrayList<>();
        operation(doc, "GET", "/api/v1/crm/companies").path("parameters").forEach(p -> params.add(p.path("name").asText()));
        assertEquals(List.of("page", "limit", "search"), params);
        assertEquals("#/components/schemas/CompanyPage", operation(doc, "GET", "/api/v1/crm/companies")
                .at("/responses/200/content/application~1json/schema/$ref").asText());
    }

    @Test
    void theResponsesAreTypedByTheSchemasTheRoutesReturnWithUuidIdsAndEveryProblem(TestPlatform platform) {
        JsonNode doc = document(platform);
        assertEquals("#/components/schemas/DealEnvelope", operation(doc, "GET", "/api/v1/crm/deals/{id}")
                .at("/responses/200/content/application~1json/schema/$ref").asText());
        assertEquals("#/components/schemas/Deal", doc.at("/components/schemas/DealEnvelope/properties/data/$ref")
                .asText());
        assertEquals(doc.at("/components/schemas/Deal/properties"), Json.resource(CrmPlugin.class, "schemas/deal.json")
                .path("properties"), "the route's schema file, once");
        assertEquals("#/components/schemas/Deal", doc.at("/components/schemas/DealPage/properties/data/items/$ref")
                .asText());
        assertEquals("#/components/schemas/Contact", operation(doc, "POST", "/api/v1/crm/contacts")
                .at("/responses/201/content/application~1json/schema/$ref").asText(), "answered directly");
        assertEquals("Annual licence renewal", operation(doc, "GET", "/api/v1/crm/deals/{id}")
                .at("/responses/200/content/application~1json/example/data/title").asText());
        assertEquals("uuid", operation(doc, "GET", "/api/v1/crm/deals/{id}").at("/parameters/0/schema/format").asText());
        List<String> statuses = new ArrayList<>();
        operation(doc, "PATCH", "/api/v1/crm/deals/{id}").path("responses").fieldNames().forEachRemaining(statuses::add);
        assertEquals(List.of("200", "400", "401", "403", "404", "409", "413", "415", "422", "429", "503", "default"),
                statuses);
        assertTrue(doc.at("/components/responses/TooManyRequests/headers/Retry-After").isObject());
        assertTrue(doc.at("/components/responses/ServiceUnavailable/headers/Retry-After").isObject());
    }

    @Test
    void realAnswersMatchTheDocument(TestPlatform platform) {
        OpenApiContract contract = OpenApiContract.of(platform);
        String key = platform.fullAccessKey(platform.createWorkspace("crm-openapi"));

        String contactId = contract.check("POST", "/api/v1/crm/contacts", platform.post("/api/v1/crm/contacts", key,
                "{\"email\": \"ada@example.com\", \"first_name\": \"Ada\", \"tags\": [\"vip\"]}")).json()
                .path("id").asText();
        contract.check("GET", "/api/v1/crm/contacts", platform.get("/api/v1/crm/contacts?search=ada", key));
        contract.check("GET", "/api/v1/crm/contacts/{id}/conversations",
                platform.get("/api/v1/crm/contacts/" + contactId + "/conversations", key));
        contract.check("POST", "/api/v1/crm/contacts", platform.post("/api/v1/crm/contacts", key,
                "{\"email\": \"ada@example.com\"}"));
        String companyId = contract.check("POST", "/api/v1/crm/companies", platform.post("/api/v1/crm/companies", key,
                "{\"name\": \"Analytical Engines\", \"employees\": 42}")).data().path("id").asText();
        contract.check("GET", "/api/v1/crm/companies/{id}", platform.get("/api/v1/crm/companies/" + companyId, key));
        contract.check("GET", "/api/v1/crm/companies", platform.get("/api/v1/crm/companies", key));
        contract.check("PATCH", "/api/v1/crm/companies/{id}", platform.patch("/api/v1/crm/companies/" + companyId,
                key, "{\"city\": \"London\"}"));

        TestResponse created = contract.check("POST", "/api/v1/crm/deals", platform.post("/api/v1/crm/deals", key,
                "{\"title\": \"Renewal\", \"value\": 1200, \"currency\": \"EUR\", \"contact_id\": \"" + contactId
                        + "\", \"company_id\": \"" + companyId + "\", \"expected_close_date\": \"2026-06-30\"}"));
        assertEquals(201, created.status(), created.body());
        String dealId = created.data().path("id").asText();
        contract.check("GET", "/api/v1/crm/deals/{id}", platform.get("/api/v1/crm/deals/" + dealId, key));
        contract.check("PATCH", "/api/v1/crm/deals/{id}", platform.patch("/api/v1/crm/deals/" + dealId, key,
                "{\"stage\": \"proposal\", \"probability\": 60}"));
        contract.check("GET", "/api/v1/crm/deals", platform.get("/api/v1/crm/deals?status=open&limit=10", key));
        contract.check("DELETE", "/api/v1/crm/deals/{id}", platform.delete("/api/v1/crm/deals/" + dealId, key));
        contract.check("DELETE", "/api/v1/crm/companies/{id}", platform.delete("/api/v1/crm/companies/" + companyId,
                key));

        // The problems are documented for the routes that give them, in the problem+json schema.
        assertEquals(404, contract.check("GET", "/api/v1/crm/deals/{id}", platform.get("/api/v1/crm/deals/" + dealId,
                key)).status());
        assertEquals(400, contract.check("GET", "/api/v1/crm/deals/{id}", platform.get("/api/v1/crm/deals/nope",
                key)).status());
        assertEquals(422, contract.check("POST", "/api/v1/crm/deals", platform.post("/api/v1/crm/deals", key,
                "{\"title\": \"\", \"stage\": \"Won\"}")).status());
        assertEquals(400, contract.check("GET", "/api/v1/crm/deals", platform.get("/api/v1/crm/deals?per_page=5",
                key)).status());
        assertEquals(401, contract.check("GET", "/api/v1/crm/deals", platform.get("/api/v1/crm/deals", null)).status());
        String readOnly = platform.key(platform.createWorkspace("crm-openapi-read"), CrmScopes.DEALS_READ);
        assertEquals(403, contract.check("POST", "/api/v1/crm/deals", platform.post("/api/v1/crm/deals", readOnly,
                "{\"title\": \"x\"}")).status());
    }
}
