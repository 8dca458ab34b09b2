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
    final JsonNode cyclePatch = JsonSchemas.patchOf(cycleCreate, "Cycle update",
            Set.of("name", "start_date", "end_date", "status"));
    final JsonNode cycleUpdate = JsonSchemas.withId(cyclePatch, "the cycle's id");
    final JsonNode cycleGet = JsonSchemas.idOnly("Get a cycle", "the cycle's id");
    final JsonNode cycleClose = load("cycle-close.json");
    final JsonNode cycleCloseTool = JsonSchemas.withId(cycleClose, "the id of the cycle to close");
    final JsonNode cycleClosed = closed(load("cycle-closed.json"), cycle);
    final JsonNode allocationCreate = load("allocation-create.json");
    final JsonNode allocationPatch = JsonSchemas.patchOf(allocationCreate, "Planning allocation update",
            Set.of("user_id", "project_id", "start_date", "end_date", "hours_per_day", "percentage"));
    final JsonNode allocationUpdate = JsonSchemas.withId(allocationPatch, "the allocation's id");
    final JsonNode allocationGet = JsonSchemas.idOnly("Get a planning allocation", "the allocation's id");
    final JsonNode allocationDelete = JsonSchemas.idOnly("Delete a planning allocation", "the allocation's id");
    final JsonNode allocation = load("allocation.json");
    final JsonNode capacityQuery = load("capacity-query.json");
    final java.util.List<dev.lnp.api.http.QueryParam> capacityParams = dev.lnp.api.http.QueryParam.fromSchema(capacityQuery);
    final JsonNode capacity = load("capacity.json");
    final JsonNode capacitySet = load("capacity-set.json");
    final JsonNode capacitySetting = load("capacity-setting.json");
    final JsonNode deleted = JsonSchemas.deleted();

    /** The close result names the closed cycle by the cycle schema itself, so the two cannot drift apart. */
    private static JsonNode closed(JsonNode result, JsonNode cycle) {
        com.fasterxml.jackson.databind.node.ObjectNode schema = result.deepCopy();
        com.fasterxml.jackson.databind.node.ObjectNode item = cycle.deepCopy();
        item.remove("$schema");
        ((com.fasterxml.jackson.databind.node.ObjectNode) schema.get("properties")).set("cycle", item);
        return schema;
    }

    private static JsonNode load(String name) {
        return JsonSchemas.load(ProjectSchemas.class, name);
    }
}
