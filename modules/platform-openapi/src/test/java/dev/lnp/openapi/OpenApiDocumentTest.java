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

    @Test
    void aDeclaredResponseSchemaTypesTheEnvelopePageAndDirectAnswers() {
        JsonNode item = Json.parse("""
                {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Note", "type": "object",
                 "required": ["id"], "properties": {"id": {"type": "string", "format": "uuid"}},
                 "examples": [{"id": "8c1f4e2a-3b5d-4c6e-9f70-1a2b3c4d5e6f"}]}
                """);
        List<RouteSpec> routes = List.of(
                RouteSpec.get("/api/v1/notes").scope("notes.read").paginated().returns(item)
                        .handler(req -> ApiResponse.of(Map.of())),
                RouteSpec.get("/api/v1/notes/{id}").scope("notes.read").returns(item).answers(409)
                        .handler(req -> ApiResponse.of(Map.of())),
                RouteSpec.post("/api/v1/notes").scope("notes.write").body(item).returns(item)
                        .shape(dev.lnp.api.http.ResponseShape.DIRECT).handler(req -> ApiResponse.of(Map.of())),
                RouteSpec.get("/api/v1/notes/{id}/files/{name}").scope("notes.read")
                        .handler(req -> ApiResponse.of(Map.of())));
        JsonNode doc = OpenApiDocument.builder("Notes", "1").server("/").routes("notes", routes).build();

        JsonNode note = doc.at("/components/schemas/Note");
        assertTrue(note.path("$schema").isMissingNode() && note.path("examples").isMissingNode(), note.toString());
        assertEquals("#/components/schemas/NotePage",
                doc.at("/paths/~1api~1v1~1notes/get/responses/200/content/application~1json/schema/$ref").asText());
        assertEquals("#/components/schemas/Note", doc.at("/components/schemas/NotePage/properties/data/items/$ref")
                .asText());
        assertEquals(1, doc.at("/paths/~1api~1v1~1notes/get/responses/200/content/application~1json/example"
                + "/pagination/total").asInt());
        JsonNode get = doc.at("/paths/~1api~1v1~1notes~1{id}/get");
        assertEquals("#/components/schemas/NoteEnvelope",
                get.at("/responses/200/content/application~1json/schema/$ref").asText());
        assertEquals("8c1f4e2a-3b5d-4c6e-9f70-1a2b3c4d5e6f",
                get.at("/responses/200/content/application~1json/example/data/id").asText());
        assertEquals("uuid", get.at("/parameters/0/schema/format").asText());
        assertEquals("#/components/responses/Conflict", get.at("/responses/409/$ref").asText(), "declared by the route");
        assertTrue(get.path("responses").path("413").isMissingNode(), "no body, no 413");
        assertEquals("#/components/schemas/Note", doc.at("/paths/~1api~1v1~1notes/post/responses/201/content"
                + "/application~1json/schema/$ref").asText(), "answered directly");
        assertEquals("#/components/parameters/IdempotencyKey", doc.at("/paths/~1api~1v1~1notes/post/parameters/0/$ref")
                .asText());
        JsonNode file = doc.at("/paths/~1api~1v1~1notes~1{id}~1files~1{name}/get/parameters");
        assertEquals("uuid", file.at("/0/schema/format").asText());
        assertTrue(file.at("/1/schema/format").isMissingNode(), "not an id: a plain string");
        assertEquals("#/components/headers/RetryAfter",
                doc.at("/components/responses/TooManyRequests/headers/Retry-After/$ref").asText());
        assertEquals("#/components/headers/RetryAfter",
                doc.at("/components/responses/ServiceUnavailable/headers/Retry-After/$ref").asText());
    }

    @Test
    void theListedStatusesFollowWhatThePipelineDoesWithTheRoute() {
        RouteSpec read = RouteSpec.get("/api/v1/notes/{id}").scope("notes.read").handler(req -> ApiResponse.of(1));
        assertEquals(java.util.Set.of(400, 401, 403, 404, 429, 503), OpenApiDocument.errorStatuses(read));
        RouteSpec write = RouteSpec.patch("/api/v1/notes/{id}").scope("notes.write").body(Json.parse("{}"))
                .handler(req -> ApiResponse.of(1));
        assertEquals(java.util.Set.of(400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
                OpenApiDocument.errorStatuses(write));
        RouteSpec action = RouteSpec.post("/api/v1/notes/{id}/archive").scope("notes.write")
                .handler(req -> ApiResponse.of(1));
        assertTrue(OpenApiDocument.errorStatuses(action).contains(422), "Idempotency-Key reused with another request");
        RouteSpec publicRead = RouteSpec.get("/api/v1/public").publicRoute().answers(412, 428)
                .handler(req -> ApiResponse.of(1));
        assertEquals(java.util.Set.of(400, 404, 412, 428, 503), OpenApiDocument.errorStatuses(publicRead));
    }
}
