package dev.lnp.plugins.projects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.mcp.ToolAnnotations;
import dev.lnp.api.mcp.ToolDescriptor;
import dev.lnp.api.mcp.ToolResult;
import java.util.List;
import java.util.UUID;

/** The MCP tools of projects, cycles and planning; they run the same services as the REST routes. */
record ProjectTools(ProjectService projects, CycleService cycles, CycleClosing closing, AllocationService allocations,
        CapacityService capacity, ProjectSchemas schemas) {

    List<ToolDescriptor> tools() {
        return List.of(
                ToolDescriptor.builder("projects_list")
                        .title("List projects")
                        .description("Lists the workspace's projects (soft-deleted ones excluded), oldest first, a page at a time.")
                        .scope(ProjectScopes.PROJECTS_READ)
                        .inputSchema(schemas.projectList)
                        .outputSchema(schemas.projectPage)
                        .annotations(ToolAnnotations.read())
                        .handler(call -> ToolResult.listed(projects.list(call.tx(), call.pageRequest()))),
                ToolDescriptor.builder("projects_get")
                        .title("Get a project")
                        .description("One project by id.")
                        .scope(ProjectScopes.PROJECTS_READ)
                        .inputSchema(schemas.projectGet)
                        .outputSchema(schemas.project)
                        .annotations(ToolAnnotations.read())
                        .handler(call -> ToolResult.of(projects.get(call.tx(), call.id()))),
                ToolDescriptor.builder("projects_create")
                        .title("Create a project")
                        .description("Creates a project. Legacy status keys are accepted and stored as the current key.")
                        .scope(ProjectScopes.PROJECTS_WRITE)
                        .inputSchema(schemas.projectCreate)
                        .outputSchema(schemas.project)
                        .annotations(ToolAnnotations.create())
                        .handler(call -> entity(projects.create(call.tx(), call.arguments()), "project", "created")),
                ToolDescriptor.builder("projects_update")
                        .title("Update a project")
                        .description("Changes the given fields of a project; null clears an optional field.")
                        .scope(ProjectScopes.PROJECTS_WRITE)
                        .inputSchema(schemas.projectUpdate)
                        .outputSchema(schemas.project)
                        .annotations(ToolAnnotations.update())
                        .handler(call -> entity(projects.update(call.tx(), call.id(), call.argumentsWithoutId()),
                                "project", "updated")),
                ToolDescriptor.builder("projects_delete")
                        .title("Delete a project")
                        .description("Soft-deletes a project: it disappears from lists and lookups; an operator can restore it.")
                        .scope(ProjectScopes.PROJECTS_WRITE)
                        .inputSchema(schemas.projectDelete)
                        .outputSchema(schemas.deleted)
                        .annotations(ToolAnnotations.delete())
                        .handler(call -> {
                            var deleted = projects.delete(call.tx(), call.id());
                            return ToolResult.of(deleted.toJson(), new EntityRef("project", deleted.id(), "deleted"));
                        }),
                ToolDescriptor.builder("projects_cycle_create")
                        .title("Create a cycle")
                        .description("Creates a cycle (a dated iteration) in a project.")
                        .scope(ProjectScopes.PROJECTS_WRITE)
                        .inputSchema(schemas.cycleCreateInProject)
                        .outputSchema(schemas.cycle)
                        .annotations(ToolAnnotations.create())
                        .handler(call -> entity(cycles.create(call.tx(), call.id(), call.argumentsWithoutId()),
                                "cycle", "created")),
                ToolDescriptor.builder("projects_cycle_get")
                        .title("Get a cycle")
                        .description("One cycle by id.")
                        .scope(ProjectScopes.PROJECTS_READ)
                        .inputSchema(schemas.cycleGet)
                        .outputSchema(schemas.cycle)
                        .annotations(ToolAnnotations.read())
                        .handler(call -> ToolResult.of(cycles.get(call.tx(), call.id()))),
                ToolDescriptor.builder("projects_cycle_update")
                        .title("Update a cycle")
                        .description("Changes a cycle's name, dates or status (upcoming, active); cycles of a project may not "
                                + "overlap. Completing a cycle is projects_cycle_close.")
                        .scope(ProjectScopes.PROJECTS_WRITE)
                        .inputSchema(schemas.cycleUpdate)
                        .outputSchema(schemas.cycle)
                        .annotations(ToolAnnotations.update())
                        .handler(call -> entity(cycles.update(call.tx(), call.id(), call.argumentsWithoutId()),
                                "cycle", "updated")),
                ToolDescriptor.builder("projects_cycle_close")
                        .title("Close a cycle")
                        .description("Completes a cycle and moves its open tasks and tickets to the project's next cycle (or to "
                                + "target_cycle_id; null takes them out of any cycle).")
                        .scope(ProjectScopes.PROJECTS_WRITE)
                        .inputSchema(schemas.cycleCloseTool)
                        .outputSchema(schemas.cycleClosed)
                        .annotations(ToolAnnotations.update())
                        .handler(call -> {
                            ObjectNode closed = closing.close(call.tx(), call.id(), call.argumentsWithoutId());
                            return ToolResult.of(closed, new EntityRef("cycle", call.id(), "updated"));
                        }),
                ToolDescriptor.builder("planning_allocation_create")
                        .title("Create a planning allocation")
                        .description("Allocates a person to a project (or one issue of it) between two dates, in hours per day or "
                                + "as a percentage of their time.")
                        .scope(ProjectScopes.PLANNING_WRITE)
                        .inputSchema(schemas.allocationCreate)
                        .outputSchema(schemas.allocation)
                        .annotations(ToolAnnotations.create())
                        .handler(call -> entity(allocations.create(call.tx(), call.principal().actorId(), call.arguments()),
                                "allocation", "created")),
                ToolDescriptor.builder("planning_allocation_get")
                        .title("Get a planning allocation")
                        .description("One planning allocation by id.")
                        .scope(ProjectScopes.PLANNING_READ)
                        .inputSchema(schemas.allocationGet)
                        .outputSchema(schemas.allocation)
                        .annotations(ToolAnnotations.read())
                        .handler(call -> ToolResult.of(allocations.get(call.tx(), call.id()))),
                ToolDescriptor.builder("planning_allocation_update")
                        .title("Update a planning allocation")
                        .description("Changes the given fields of an allocation. Sending hours_per_day or percentage switches "
                                + "the allocation to that unit.")
                        .scope(ProjectScopes.PLANNING_WRITE)
                        .inputSchema(schemas.allocationUpdate)
                        .outputSchema(schemas.allocation)
                        .annotations(ToolAnnotations.update())
                        .handler(call -> entity(allocations.update(call.tx(), call.id(), call.argumentsWithoutId()),
                                "allocation", "updated")),
                ToolDescriptor.builder("planning_allocation_delete")
                        .title("Delete a planning allocation")
                        .description("Deletes an allocation for good.")
                        .scope(ProjectScopes.PLANNING_WRITE)
                        .inputSchema(schemas.allocationDelete)
                        .outputSchema(schemas.deleted)
                        .annotations(ToolAnnotations.delete())
                        .handler(call -> {
                            var deleted = allocations.delete(call.tx(), call.id());
                            return ToolResult.of(deleted.toJson(), new EntityRef("allocation", deleted.id(), "deleted"));
                        }),
                ToolDescriptor.builder("planning_capacity")
                        .title("Read capacity")
                        .description("Per person per ISO week: allocated hours against their weekly capacity (default 40), "
                                + "overbooked weeks flagged.")
                        .scope(ProjectScopes.PLANNING_READ)
                        .inputSchema(schemas.capacityQuery)
                        .outputSchema(schemas.capacity)
                        .annotations(ToolAnnotations.read())
                        .handler(call -> ToolResult.of(capacity.report(call.tx(),
                                call.text("from").map(java.time.LocalDate::parse).orElse(null),
                                call.text("to").map(java.time.LocalDate::parse).orElse(null),
                                call.strings("user_id").stream().map(UUID::fromString).toList(),
                                call.text("project_id").map(UUID::fromString).orElse(null)))));
    }

    private static ToolResult entity(ObjectNode data, String type, String action) {
        return ToolResult.of(data, new EntityRef(type, UUID.fromString(data.get("id").asText()), action));
    }
}
