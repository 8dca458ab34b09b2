package dev.lnp.plugins.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@PlatformTest(plugins = "projects")
class ProjectToolsTest {

    @Test
    void toolsUseTheRouteSchemasAndRules(TestPlatform platform) {
        UUID ws = platform.createWorkspace("tools");
        String key = platform.key(ws, "projects.read", "projects.write");
        var created = platform.callTool(key, "projects_create", "{\"name\": \"via mcp\", \"status\": \"in_progress\"}");
        JsonNode project = json(created);
        assertEquals("active", project.get("status").asText());
        assertEquals("created", created.entities().get(0).action());
        UUID id = UUID.fromString(project.get("id").asText());

        var updated = platform.callTool(key, "projects_update", "{\"id\": \"" + id + "\", \"priority\": \"low\"}");
        assertEquals("low", json(updated).get("priority").asText());
        var emptyPatch = assertThrows(ApiProblem.class, () -> platform.callTool(key, "projects_update",
                "{\"id\": \"" + id + "\"}"));
        assertEquals(422, emptyPatch.status());
        var unknown = assertThrows(ApiProblem.class, () -> platform.callTool(key, "projects_create",
                "{\"name\": \"x\", \"target_date\": \"2025-01-01\"}"));
        assertEquals("/target_date", unknown.errors().get(0).pointer());

        var listed = platform.callTool(key, "projects_list", "{\"limit\": 10}");
        assertEquals(id.toString(), json(listed).path("items").path(0).path("id").asText());
        assertEquals(1, json(listed).path("pagination").path("total").asInt());
        assertEquals(id.toString(), json(platform.callTool(key, "projects_get", "{\"id\": \"" + id + "\"}")).get("id").asText());
        platform.callTool(key, "projects_delete", "{\"id\": \"" + id + "\"}");
        assertEquals(404, assertThrows(ApiProblem.class,
                () -> platform.callTool(key, "projects_get", "{\"id\": \"" + id + "\"}")).status());

        assertEquals(403, assertThrows(ApiProblem.class, () -> platform.callTool(platform.key(ws, "projects.read"),
                "projects_create", "{\"name\": \"no\"}")).status());
    }

    /** A tool's data as the MCP surface sends it. */
    private static JsonNode json(ToolResult result) {
        return Json.mapper().valueToTree(result.data());
    }

    @Test
    void annotationsSayWhatEachToolDoes(TestPlatform platform) {
        var registry = platform.platform().registry();
        assertTrue(registry.tool("projects_list").orElseThrow().descriptor().annotations().readOnly());
        assertTrue(registry.tool("projects_delete").orElseThrow().descriptor().annotations().destructive());
        var create = registry.tool("projects_create").orElseThrow().descriptor();
        assertEquals(false, create.annotations().readOnly());
        var route = registry.routes().stream().filter(r -> r.spec().path().equals("/api/v1/projects")
                && r.spec().method().name().equals("POST")).findFirst().orElseThrow();
        assertTrue(route.spec().bodySchema() == create.inputSchema(), "one schema for the route and the tool");
    }
}
