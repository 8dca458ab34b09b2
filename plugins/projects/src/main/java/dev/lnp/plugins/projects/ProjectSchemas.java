package dev.lnp.plugins.projects;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.JsonSchemas;
import java.util.Set;

/**
 * The JSON Schemas of the projects plugin, loaded once: files under {@code schemas/}, and the variants derived
 * from them by the rules of {@link JsonSchemas} (PATCH from create, tool input with an {@code id}, list
 * input and output, the deletion result).
 */
final class ProjectSchemas {

    final JsonNode projectCreate = load("project-create.json");
    final JsonNode projectPatch = JsonSchemas.patchOf(projectCreate, "Project update", Set.of("name", "status", "hosted"));
    final JsonNode projectUpdate = JsonSchemas.withId(projectPatch, "the project's id");
    final JsonNode project = load("project.json");
    final JsonNode projectList = JsonSchemas.pageInput("List projects", Json.object());
    final JsonNode projectPage = JsonSchemas.pageOutput(project);
    final JsonNode projectGet = JsonSchemas.idOnly("Get a project", "the project's id");
    final JsonNode projectDelete = JsonSchemas.idOnly("Delete a project", "the project's id");
    final JsonNode cycleCreate = load("cycle-create.json");
    final JsonNode cycleCreateInProject = JsonSchemas.withId(cycleCreate, "the project's id");
    final JsonNode cycle = load("cycle.json");
    final JsonNode allocationCreate = load("allocation-create.json");
    final JsonNode allocation = load("allocation.json");
    final JsonNode deleted = JsonSchemas.deleted();

    private static JsonNode load(String name) {
        return JsonSchemas.load(ProjectSchemas.class, name);
    }
}
