package dev.lnp.plugins.crm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.HttpMethod;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code /openapi/v1.json} lists every CRM route as declared: companies beside contacts and deals. */
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
        assertEquals("#/components/schemas/PageEnvelope", operation(doc, "GET", "/api/v1/crm/companies")
                .at("/responses/200/content/application~1json/schema/$ref").asText());
    }
}
