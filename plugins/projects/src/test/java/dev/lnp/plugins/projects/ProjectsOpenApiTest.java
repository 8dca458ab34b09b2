package dev.lnp.plugins.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.OpenApiContract;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Real answers of the projects, cycles and planning routes match {@code /openapi/v1.json}: the schema each route
 * declares it returns, and the problems listed for it ({@link OpenApiContract}).
 */
@PlatformTest(plugins = "projects")
class ProjectsOpenApiTest {

    @Test
    void theDocumentTypesProjectsAndTheirPages(TestPlatform platform) {
        JsonNode doc = OpenApiContract.of(platform).document();
        assertEquals("#/components/schemas/ProjectPage", doc.at("/paths/~1api~1v1~1projects/get/responses/200/content"
                + "/application~1json/schema/$ref").asText());
        assertEquals("Website relaunch", doc.at("/paths/~1api~1v1~1projects~1{id}/get/responses/200/content"
                + "/application~1json/example/data/name").asText());
        assertEquals("uuid", doc.at("/paths/~1api~1v1~1planning~1capacities~1{user_id}/put/parameters/0/schema/format")
                .asText());
    }

    @Test
    void realAnswersMatchTheDocument(TestPlatform platform) {
        OpenApiContract contract = OpenApiContract.of(platform);
        UUID ws = platform.createWorkspace("projects-openapi");
        String key = platform.fullAccessKey(ws);

        TestResponse created = contract.check("POST", "/api/v1/projects", platform.post("/api/v1/projects", key,
                "{\"name\": \"Website relaunch\", \"status\": \"active\", \"start_date\": \"2026-04-01\"}"));
        assertEquals(201, created.status(), created.body());
        String project = created.data().path("id").asText();
        contract.check("GET", "/api/v1/projects/{id}", platform.get("/api/v1/projects/" + project, key));
        contract.check("PATCH", "/api/v1/projects/{id}", platform.patch("/api/v1/projects/" + project, key,
                "{\"priority\": \"high\"}"));
        contract.check("GET", "/api/v1/projects", platform.get("/api/v1/projects?limit=5", key));

        String cycle = contract.check("POST", "/api/v1/projects/{id}/cycles", platform.post("/api/v1/projects/"
                + project + "/cycles", key, "{\"name\": \"Sprint 1\", \"start_date\": \"2026-04-06\", "
                + "\"end_date\": \"2026-04-19\"}")).data().path("id").asText();
        contract.check("GET", "/api/v1/projects/{id}/cycles", platform.get("/api/v1/projects/" + project + "/cycles",
                key));
        contract.check("GET", "/api/v1/cycles/{id}", platform.get("/api/v1/cycles/" + cycle, key));
        contract.check("POST", "/api/v1/cycles/{id}/close", platform.post("/api/v1/cycles/" + cycle + "/close", key,
                "{}"));

        UUID person = platform.workspaces().addUser(ws, "planner-" + UUID.randomUUID() + "@example.com", "member");
        String allocation = contract.check("POST", "/api/v1/planning/allocations", platform.post(
                "/api/v1/planning/allocations", key, "{\"user_id\": \"" + person + "\", \"project_id\": \"" + project
                        + "\", \"start_date\": \"2026-04-06\", \"end_date\": \"2026-04-10\", \"hours_per_day\": 4}"))
                .data().path("id").asText();
        contract.check("GET", "/api/v1/planning/allocations", platform.get("/api/v1/planning/allocations?user_id="
                + person, key));
        contract.check("GET", "/api/v1/planning/capacity", platform.get("/api/v1/planning/capacity?from=2026-04-06"
                + "&to=2026-04-19", key));
        contract.check("PUT", "/api/v1/planning/capacities/{user_id}", platform.send("PUT",
                "/api/v1/planning/capacities/" + person, key, "{\"weekly_hours\": 32}", java.util.Map.of()));
        contract.check("DELETE", "/api/v1/planning/allocations/{id}", platform.delete("/api/v1/planning/allocations/"
                + allocation, key));
        contract.check("DELETE", "/api/v1/projects/{id}", platform.delete("/api/v1/projects/" + project, key));

        assertEquals(404, contract.check("GET", "/api/v1/cycles/{id}", platform.get("/api/v1/cycles/"
                + UUID.randomUUID(), key)).status());
        assertEquals(422, contract.check("POST", "/api/v1/projects", platform.post("/api/v1/projects", key,
                "{\"name\": \"x\", \"target_date\": \"2026-01-01\"}")).status());
        assertEquals(400, contract.check("PATCH", "/api/v1/projects/{id}", platform.patch("/api/v1/projects/12", key,
                "{\"name\": \"x\"}")).status());
    }
}
