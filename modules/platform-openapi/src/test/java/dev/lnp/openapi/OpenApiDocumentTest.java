package dev.lnp.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.HttpMethod;
import dev.lnp.api.http.RawResponse;
import dev.lnp.api.http.RouteSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The builder a plugin uses to publish a document of its own routes (e.g. /openapi/agent-trials.json). */
class OpenApiDocumentTest {

    @Test
    void operationIdsAreStableAndUniquePerMethodAndPath() {
        assertEquals("getCrmDealsById", OpenApiDocument.operationId(HttpMethod.GET, "/api/v1/crm/deals/{id}"));
        assertEquals("postIssuesBulkUpdate", OpenApiDocument.operationId(HttpMethod.POST, "/api/v1/issues/bulk-update"));
        assertEquals("getApiAgentTrialsStatus", OpenApiDocument.operationId(HttpMethod.GET, "/api/agent-trials/status"));
        assertEquals("deleteWebhooksSubscriptionsByIdDeliveriesByDeliveryId",
                OpenApiDocument.operationId(HttpMethod.DELETE, "/api/v1/webhooks/subscriptions/{id}/deliveries/{delivery_id}"));
    }

    @Test
    void aPluginDocumentsItsOwnRoutesPublicOnesWithoutSecurity() {
        JsonNode body = Json.parse("{\"type\": \"object\", \"required\": [\"agent\"], \"properties\": {\"agent\": {\"type\": \"string\"}}}");
        List<RouteSpec> routes = List.of(
                RouteSpec.post("/api/agent-trials").publicRoute().body(body).status(202)
                        .handler(req -> ApiResponse.of(Map.of())),
                RouteSpec.get("/api/agent-trials/challenge").publicRoute().raw(req -> RawResponse.empty(204)));
        JsonNode doc = OpenApiDocument.builder("Agent trials", "1").server("https://lnp.example.test")
                .routes("agent-trials", routes).build();

        assertEquals("3.1.0", doc.path("openapi").asText());
        assertEquals("https://lnp.example.test", doc.at("/servers/0/url").asText());
        JsonNode post = doc.at("/paths/~1api~1agent-trials/post");
        assertEquals(0, post.path("security").size(), "public: no key");
        assertEquals(body, doc.at("/components/schemas/PostApiAgentTrialsBody"));
        assertTrue(post.path("responses").has("202") && post.path("responses").has("422"));
        assertTrue(post.path("responses").path("401").isMissingNode(), "a public route never answers 401");
        assertEquals("Answered by the route's own protocol.",
                doc.at("/paths/~1api~1agent-trials~1challenge/get/responses/200/description").asText());
    }
}
