package dev.lnp.plugins.projects;

import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.QueryParam;
import dev.lnp.api.http.RouteSpec;
import java.util.List;
import java.util.UUID;

/** The REST routes of projects, cycles and planning allocations, in the order they are matched. */
record ProjectRoutes(ProjectService projects, CycleService cycles, CycleClosing closing, AllocationService allocations,
        CapacityService capacity, ProjectSchemas schemas) {

    List<RouteSpec> routes() {
        return List.of(
                RouteSpec.get("/api/v1/projects").scope(ProjectScopes.PROJECTS_READ).paginated()
                        .returns(schemas.project).summary("List projects").handler(this::listProjects),
                RouteSpec.post("/api/v1/projects").scope(ProjectScopes.PROJECTS_WRITE).body(schemas.projectCreate)
                        .returns(schemas.project).summary("Create a project").handler(r -> ApiResponse.of(projects.create(r.tx(), r.body()))),
                RouteSpec.get("/api/v1/projects/{id}").scope(ProjectScopes.PROJECTS_READ)
                        .returns(schemas.project).summary("One project").handler(r -> ApiResponse.of(projects.get(r.tx(), r.pathId("id")))),
                RouteSpec.patch("/api/v1/projects/{id}").scope(ProjectScopes.PROJECTS_WRITE).body(schemas.projectPatch)
                        .returns(schemas.project).summary("Update a project (at least one field)")
                        .handler(r -> ApiResponse.of(projects.update(r.tx(), r.pathId("id"), r.body()))),
                RouteSpec.delete("/api/v1/projects/{id}").scope(ProjectScopes.PROJECTS_WRITE)
                        .returns(schemas.deleted).summary("Soft-delete a project")
                        .handler(r -> ApiResponse.of(projects.delete(r.tx(), r.pathId("id")).toJson())),
                RouteSpec.get("/api/v1/projects/{id}/cycles").scope(ProjectScopes.PROJECTS_READ).paginated()
                        .returns(schemas.cycle).summary("List a project's cycles")
                        .handler(r -> cycles.list(r.tx(), r.pathId("id"), r.pageRequest()).response()),
                RouteSpec.post("/api/v1/projects/{id}/cycles").scope(ProjectScopes.PROJECTS_WRITE).body(schemas.cycleCreate)
                        .returns(schemas.cycle).summary("Create a cycle in a project")
                        .handler(r -> ApiResponse.of(cycles.create(r.tx(), r.pathId("id"), r.body()))),
                RouteSpec.get("/api/v1/cycles/{id}").scope(ProjectScopes.PROJECTS_READ)
                        .returns(schemas.cycle).summary("One cycle").handler(r -> ApiResponse.of(cycles.get(r.tx(), r.pathId("id")))),
                RouteSpec.patch("/api/v1/cycles/{id}").scope(ProjectScopes.PROJECTS_WRITE).body(schemas.cyclePatch)
                        .returns(schemas.cycle).summary("Update a cycle (at least one field; completing it is closing it)")
                        .handler(r -> ApiResponse.of(cycles.update(r.tx(), r.pathId("id"), r.body()))),
                RouteSpec.post("/api/v1/cycles/{id}/close").scope(ProjectScopes.PROJECTS_WRITE).body(schemas.cycleClose)
                        .status(200).returns(schemas.cycleClosed).summary("Complete a cycle and move its open tasks to the next cycle")
                        .handler(r -> ApiResponse.of(closing.close(r.tx(), r.pathId("id"), r.body()))),
                RouteSpec.get("/api/v1/planning/allocations").scope(ProjectScopes.PLANNING_READ).paginated()
                        .query(QueryParam.uuid("user_id", "only this person's allocations"),
                                QueryParam.uuid("project_id", "only this project's allocations"))
                        .returns(schemas.allocation).summary("List planning allocations").handler(this::listAllocations),
                RouteSpec.post("/api/v1/planning/allocations").scope(ProjectScopes.PLANNING_WRITE)
                        .body(schemas.allocationCreate).returns(schemas.allocation).summary("Create a planning allocation")
                        .handler(r -> ApiResponse.of(allocations.create(r.tx(), actor(r), r.body()))),
                RouteSpec.get("/api/v1/planning/allocations/{id}").scope(ProjectScopes.PLANNING_READ)
                        .returns(schemas.allocation).summary("One planning allocation")
                        .handler(r -> ApiResponse.of(allocations.get(r.tx(), r.pathId("id")))),
                RouteSpec.patch("/api/v1/planning/allocations/{id}").scope(ProjectScopes.PLANNING_WRITE)
                        .body(schemas.allocationPatch).returns(schemas.allocation).summary("Update a planning allocation (at least one field)")
                        .handler(r -> ApiResponse.of(allocations.update(r.tx(), r.pathId("id"), r.body()))),
                RouteSpec.delete("/api/v1/planning/allocations/{id}").scope(ProjectScopes.PLANNING_WRITE)
                        .returns(schemas.deleted).summary("Delete a planning allocation")
                        .handler(r -> ApiResponse.of(allocations.delete(r.tx(), r.pathId("id")).toJson())),
                RouteSpec.get("/api/v1/planning/capacity").scope(ProjectScopes.PLANNING_READ)
                        .query(schemas.capacityParams.toArray(QueryParam[]::new))
                        .returns(schemas.capacity).summary("Allocated hours against capacity, per person per ISO week, overbooking flagged")
                        .handler(r -> ApiResponse.of(capacity.report(r.tx(), date(r, "from"), date(r, "to"),
                                r.queryAll("user_id").stream().map(UUID::fromString).toList(),
                                r.query("project_id").map(UUID::fromString).orElse(null)))),
                RouteSpec.put("/api/v1/planning/capacities/{user_id}").scope(ProjectScopes.PLANNING_WRITE)
                        .body(schemas.capacitySet).returns(schemas.capacitySetting).summary("Set a person's weekly capacity (null: the default)")
                        .handler(r -> ApiResponse.of(capacity.setWeeklyHours(r.tx(), r.pathId("user_id"),
                                r.body()))));
    }

    private ApiResponse listProjects(ApiRequest request) {
        return projects.list(request.tx(), request.pageRequest()).response();
    }

    private ApiResponse listAllocations(ApiRequest request) {
        return allocations.list(request.tx(), request.query("user_id").map(UUID::fromString).orElse(null),
                request.query("project_id").map(UUID::fromString).orElse(null), request.pageRequest()).response();
    }

    private static java.time.LocalDate date(ApiRequest request, String name) {
        return request.query(name).map(java.time.LocalDate::parse).orElse(null);
    }

    private static UUID actor(ApiRequest request) {
        return request.principal().map(p -> p.actorId()).orElse(null);
    }
}
