package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.OpenApiContract;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Real answers of the task, ticket, comment, label and bulk routes match {@code /openapi/v1.json}: the schema each
 * route declares it returns, and the problems listed for it ({@link OpenApiContract}).
 */
@PlatformTest(plugins = {"projects", "issues"})
class IssuesOpenApiTest {

    @Test
    void theDocumentTypesIssuesAndListsTheIdempotencyKeyOnCreates(TestPlatform platform) {
        JsonNode doc = OpenApiContract.of(platform).document();
        JsonNode create = doc.at("/paths/~1api~1v1~1issues/post");
        assertEquals("#/components/schemas/IssueEnvelope",
                create.at("/responses/201/content/application~1json/schema/$ref").asText());
        assertEquals("Write the migration guide",
                create.at("/responses/201/content/application~1json/example/data/title").asText());
        assertEquals("#/components/parameters/IdempotencyKey", create.at("/parameters/0/$ref").asText());
        assertEquals("#/components/schemas/IssueBulkUpdateResultEnvelope",
                doc.at("/paths/~1api~1v1~1issues~1bulk-update/post/responses/200/content/application~1json/schema/$ref")
                        .asText());
    }

    @Test
    void realAnswersMatchTheDocument(TestPlatform platform) {
        OpenApiContract contract = OpenApiContract.of(platform);
        Fixtures f = Fixtures.workspace(platform, "issues-openapi");
        UUID project = f.project("documented");
        String key = f.key();

        TestResponse created = contract.check("POST", "/api/v1/issues", platform.send("POST", "/api/v1/issues", key,
                "{\"kind\": \"task\", \"title\": \"Write the guide\", \"project_id\": \"" + project
                        + "\", \"due_at\": \"2026-05-15T17:00:00Z\"}", Map.of("Idempotency-Key", "guide-1")));
        assertEquals(201, created.status(), created.body());
        String task = created.data().path("id").asText();
        TestResponse replayed = contract.check("POST", "/api/v1/issues", platform.send("POST", "/api/v1/issues", key,
                "{\"kind\": \"task\", \"title\": \"Write the guide\", \"project_id\": \"" + project
                        + "\", \"due_at\": \"2026-05-15T17:00:00Z\"}", Map.of("Idempotency-Key", "guide-1")));
        assertEquals("true", replayed.header("Idempotent-Replayed").orElse(""));
        assertEquals(422, contract.check("POST", "/api/v1/issues", platform.send("POST", "/api/v1/issues", key,
                "{\"kind\": \"task\", \"title\": \"Another\"}", Map.of("Idempotency-Key", "guide-1"))).status());
        String ticket = contract.check("POST", "/api/v1/issues", platform.post("/api/v1/issues", key,
                "{\"kind\": \"ticket\", \"title\": \"Cannot sign in\"}")).data().path("id").asText();

        contract.check("GET", "/api/v1/issues/{id}", platform.get("/api/v1/issues/" + task, key));
        contract.check("PATCH", "/api/v1/issues/{id}", platform.patch("/api/v1/issues/" + task, key,
                "{\"status\": \"in_progress\", \"estimate_hours\": 6}"));
        contract.check("GET", "/api/v1/issues", platform.get("/api/v1/issues?kind=ticket", key));
        contract.check("GET", "/api/v1/projects/{id}/issues", platform.get("/api/v1/projects/" + project + "/issues",
                key));
        contract.check("POST", "/api/v1/issues/labels", platform.post("/api/v1/issues/labels", key,
                "{\"name\": \"docs\", \"color\": \"#2F6FDF\"}"));
        contract.check("GET", "/api/v1/issues/labels", platform.get("/api/v1/issues/labels", key));
        contract.check("POST", "/api/v1/issues/{id}/comments", platform.post("/api/v1/issues/" + ticket + "/comments",
                key, "{\"body\": \"Looking into it.\"}"));
        contract.check("GET", "/api/v1/issues/{id}/comments", platform.get("/api/v1/issues/" + ticket + "/comments",
                key));
        contract.check("POST", "/api/v1/issues/bulk-update", platform.post("/api/v1/issues/bulk-update", key,
                "{\"issueIds\": [\"" + task + "\"], \"patch\": {\"priority\": \"high\"}}"));
        assertEquals(409, contract.check("DELETE", "/api/v1/issues/{id}", platform.delete("/api/v1/issues/" + ticket,
                key)).status(), "tickets are not deleted");
        contract.check("DELETE", "/api/v1/issues/{id}", platform.delete("/api/v1/issues/" + task, key));
        assertEquals(404, contract.check("GET", "/api/v1/issues/{id}", platform.get("/api/v1/issues/" + task, key))
                .status());
        assertEquals(422, contract.check("POST", "/api/v1/issues", platform.post("/api/v1/issues", key,
                "{\"title\": \"no kind\"}")).status());
    }
}
