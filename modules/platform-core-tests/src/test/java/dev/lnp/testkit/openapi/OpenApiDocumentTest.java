package dev.lnp.testkit.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import dev.lnp.testkit.probe.ProbePlugin;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /openapi/v1.json}: public, a valid OpenAPI 3.1 document by swagger-parser, built from the registry's
 * routes with the body schemas that validate requests, and only the routes of the plugins the deployment loads.
 */
@PlatformTest(plugins = "probe")
class OpenApiDocumentTest {

    @Test
    void theDocumentIsValidOpenApi31AndDescribesTheRoutesAsTheyAreServed(TestPlatform platform) {
        TestResponse response = platform.get("/openapi/v1.json", null);
        assertEquals(200, response.status(), response.body());
        assertEquals("application/json", response.header("Content-Type").orElseThrow());

        SwaggerParseResult parsed = parse(response.body());
        assertEquals(List.of(), parsed.getMessages(), "swagger-parser finds nothing wrong");
        OpenAPI api = parsed.getOpenAPI();
        assertEquals(SpecVersion.V31, api.getSpecVersion());
        assertEquals("3.1.0", api.getOpenapi());
        assertEquals("/", api.getServers().get(0).getUrl(), "without lnp.base.url: where the document was fetched");

        Operation list = api.getPaths().get("/api/v1/probe/items").getGet();
        assertEquals("getProbeItems", list.getOperationId());
        assertEquals(List.of("probe"), list.getTags());
        assertEquals(List.of("probe.read"), list.getSecurity().get(0).get("bearer"));
        Map<String, Parameter> params = new java.util.HashMap<>();
        list.getParameters().forEach(p -> params.put(p.getName(), p));
        assertEquals(Integer.valueOf(100), params.get("limit").getSchema().getMaximum().intValue());
        assertEquals("array", params.get("kind").getSchema().getTypes().iterator().next());
        assertEquals(List.of("a", "b"), params.get("kind").getSchema().getItems().getEnum());
        assertTrue(list.getResponses().containsKey("401") && list.getResponses().containsKey("429"));

        Operation get = api.getPaths().get("/api/v1/probe/items/{id}").getGet();
        assertEquals("path", get.getParameters().get(0).getIn());
        assertEquals("id", get.getParameters().get(0).getName());

        // The body schema is the very document that validates the request body.
        JsonNode doc = Json.parse(response.body());
        assertEquals("#/components/schemas/PostProbeItemsBody", doc.at("/paths/~1api~1v1~1probe~1items/post"
                + "/requestBody/content/application~1json/schema/$ref").asText());
        assertEquals(Json.resource(ProbePlugin.class, "schemas/item-create.json"),
                doc.at("/components/schemas/PostProbeItemsBody"));

        // The core's webhook routes are part of /api/v1; the document itself and non-v1 routes are not.
        assertNotNull(api.getPaths().get("/api/v1/webhooks/subscriptions"), api.getPaths().keySet().toString());
        assertTrue(api.getPaths().keySet().stream().allMatch(p -> p.startsWith("/api/v1/")),
                api.getPaths().keySet().toString());
    }

    @Test
    void theDocumentIsPublicAndTheSameWhateverTheCaller(TestPlatform platform) {
        String withKey = platform.get("/openapi/v1.json", platform.fullAccessKey(platform.createWorkspace("oa"))).body();
        assertEquals(platform.get("/openapi/v1.json", null).body(), withKey);
        assertEquals(404, platform.get("/openapi/v2.json", null).status());
    }

    @Test
    void aPluginTheDeploymentDoesNotLoadIsNotListed() {
        try (TestPlatform without = TestPlatform.start("openapi-without-probe", List.of(), null,
                Map.of("lnp.plugins.disabled", "probe", "lnp.base.url", "https://lnp.example.test/"))) {
            TestResponse response = without.get("/openapi/v1.json", null);
            assertEquals(200, response.status());
            SwaggerParseResult parsed = parse(response.body());
            assertEquals(List.of(), parsed.getMessages());
            OpenAPI api = parsed.getOpenAPI();
            assertEquals("https://lnp.example.test", api.getServers().get(0).getUrl());
            assertNull(api.getPaths().get("/api/v1/probe/items"));
            assertFalse(api.getTags().stream().anyMatch(t -> t.getName().equals("probe")));
            assertNotNull(api.getPaths().get("/api/v1/webhooks/subscriptions"), "the core's routes stay");
        }
    }

    static SwaggerParseResult parse(String json) {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        return new OpenAPIV3Parser().readContents(json, null, options);
    }
}
