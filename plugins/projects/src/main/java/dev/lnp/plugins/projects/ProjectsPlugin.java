package dev.lnp.plugins.projects;

import dev.lnp.api.JsonSchemas;
import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.PluginContext;
import dev.lnp.api.Registrar;
import dev.lnp.api.events.EventType;
import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.QueryParam;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.mcp.ToolAnnotations;
import dev.lnp.api.mcp.ToolCall;
import dev.lnp.api.mcp.ToolDescriptor;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.plugins.projects.api.IssueDirectory;
import dev.lnp.plugins.projects.api.ProjectDirectory;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Projects, their cycles, and planning allocations. Routes are listed here, at the top, in the order they are
 * matched; the rules live in the *Service classes, the SQL in the *Repository classes.
 */
public final class ProjectsPlugin implements PlatformPlugin {

    private final ProjectRepository projectRepository = new ProjectRepository();
    private final CycleRepository cycleRepository = new CycleRepository();
    private final ProjectService projects = new ProjectService(projectRepository);
    private final CycleService cycles = new CycleService(projectRepository, cycleRepository);
    private volatile Optional<IssueDirectory> issueDirectory = Optional.empty();
    private final AllocationService allocations = new AllocationService(projectRepository,
            new AllocationRepository(), () -> issueDirectory);

    private final JsonNode projectCreate = JsonSchemas.load(ProjectsPlugin.class, "project-create.json");
    private final JsonNode projectPatch = JsonSchemas.patchOf(projectCreate, "Project update",
            Set.of("name", "status", "hosted"));
    private final JsonNode project = JsonSchemas.load(ProjectsPlugin.class, "project.json");
    private final JsonNode cycleCreate = JsonSchemas.load(ProjectsPlugin.class, "cycle-create.json");
    private final JsonNode cycle = JsonSchemas.load(ProjectsPlugin.class, "cycle.json");
    private final JsonNode allocationCreate = JsonSchemas.load(ProjectsPlugin.class, "allocation-create.json");
    private final JsonNode allocation = JsonSchemas.load(ProjectsPlugin.class, "allocation.json");

    @Override
    public void register(Registrar registrar) {
        registrar.scope("projects.read", "Read projects and their cycles")
                .scope("projects.write", "Create, update and delete projects; create cycles")
                .scope("planning.read", "Read planning allocations")
                .scope("planning.write", "Create planning allocations")
                .migrations("projects")
                .provide(ProjectDirectory.class, new ProjectDirectoryImpl(projectRepository, cycleRepository));

        registrar.route(RouteSpec.get("/api/v1/projects").scope("projects.read").paginated()
                        .summary("List projects").handler(this::listProjects))
                .route(RouteSpec.post("/api/v1/projects").scope("projects.write").body(projectCreate)
                        .summary("Create a project").handler(r -> ApiResponse.of(projects.create(r.tx(), r.body()))))
                .route(RouteSpec.get("/api/v1/projects/{id}").scope("projects.read")
                        .summary("One project").handler(r -> ApiResponse.of(projects.get(r.tx(), r.pathId("id")))))
                .route(RouteSpec.patch("/api/v1/projects/{id}").scope("projects.write").body(projectPatch)
                        .summary("Update a project (at least one field)")
                        .handler(r -> ApiResponse.of(projects.update(r.tx(), r.pathId("id"), r.body()))))
                .route(RouteSpec.delete("/api/v1/projects/{id}").scope("projects.write")
                        .summary("Soft-delete a project").handler(r -> ApiResponse.of(projects.delete(r.tx(), r.pathId("id")))))
                .route(RouteSpec.get("/api/v1/projects/{id}/cycles").scope("projects.read").paginated()
                        .summary("List a project's cycles").handler(this::listCycles))
                .route(RouteSpec.post("/api/v1/projects/{id}/cycles").scope("projects.write").body(cycleCreate)
                        .summary("Create a cycle in a project")
                        .handler(r -> ApiResponse.of(cycles.create(r.tx(), r.pathId("id"), r.body()))))
                .route(RouteSpec.get("/api/v1/planning/allocations").scope("planning.read").paginated()
                        .query(QueryParam.uuid("user_id", "only this person's allocations"),
                                QueryParam.uuid("project_id", "only this project's allocations"))
                        .summary("List planning allocations").handler(this::listAllocations))
                .route(RouteSpec.post("/api/v1/planning/allocations").scope("planning.write").body(allocationCreate)
                        .summary("Create a planning allocation")
                        .handler(r -> ApiResponse.of(allocations.create(r.tx(), actor(r), r.body()))));

        JsonNode deleted = deletedSchema();
        registrar.event(new EventType(ProjectService.CREATED, "A project was created", project, List.of("project.created")))
                .event(new EventType(ProjectService.UPDATED, "A project was updated", project, List.of("project.updated")))
                .event(new EventType(ProjectService.DELETED, "A project was soft-deleted", deleted,
                        List.of("project.deleted")))
                .event(new EventType(CycleService.CREATED, "A cycle was created in a project", cycle,
                        List.of("cycle.created")))
                .event(new EventType(AllocationService.CREATED, "A planning allocation was created", allocation,
                        List.of("allocation.created")));

        registerTools(registrar, deleted);
    }

    @Override
    public void start(PluginContext context) {
        issueDirectory = context.service(IssueDirectory.class);
    }

    private ApiResponse listProjects(ApiRequest request) {
        var listing = projects.list(request.tx(), request.pageRequest());
        return ApiResponse.page(listing.items(), listing.page());
    }

    private ApiResponse listCycles(ApiRequest request) {
        var listing = cycles.list(request.tx(), request.pathId("id"), request.pageRequest());
        return ApiResponse.page(listing.items(), listing.page());
    }

    private ApiResponse listAllocations(ApiRequest request) {
        var listing = allocations.list(request.tx(), request.query("user_id").map(UUID::fromString).orElse(null),
                request.query("project_id").map(UUID::fromString).orElse(null), request.pageRequest());
        return ApiResponse.page(listing.items(), listing.page());
    }

    private static UUID actor(ApiRequest request) {
        return request.principal().map(p -> p.actorId()).orElse(null);
    }

    private void registerTools(Registrar registrar, JsonNode deleted) {
        registrar.tool(ToolDescriptor.builder("projects_list")
                        .title("List projects")
                        .description("Lists the workspace's projects (soft-deleted ones excluded), oldest first, a page at a time.")
                        .scope("projects.read")
                        .inputSchema(JsonSchemas.pageInput("List projects", Json.object()))
                        .outputSchema(JsonSchemas.pageOutput(project))
                        .annotations(ToolAnnotations.read())
                        .handler(call -> {
                            var listing = projects.list(call.tx(), call.pageRequest());
                            return ToolResult.of(Map.of("items", listing.items(), "pagination", listing.page()));
                        }))
                .tool(ToolDescriptor.builder("projects_get")
                        .title("Get a project")
                        .description("One project by id.")
                        .scope("projects.read")
                        .inputSchema(JsonSchemas.idOnly("Get a project", "the project's id"))
                        .outputSchema(project)
                        .annotations(ToolAnnotations.read())
                        .handler(call -> ToolResult.of(projects.get(call.tx(), call.id()))))
                .tool(ToolDescriptor.builder("projects_create")
                        .title("Create a project")
                        .description("Creates a project. Legacy status keys are accepted and stored as the current key.")
                        .scope("projects.write")
                        .inputSchema(projectCreate)
                        .outputSchema(project)
                        .annotations(ToolAnnotations.create())
                        .handler(call -> entity(projects.create(call.tx(), call.arguments()), "project", "created")))
                .tool(ToolDescriptor.builder("projects_update")
                        .title("Update a project")
                        .description("Changes the given fields of a project; null clears an optional field.")
                        .scope("projects.write")
                        .inputSchema(JsonSchemas.withId(projectPatch, "the project's id"))
                        .outputSchema(project)
                        .annotations(ToolAnnotations.update())
                        .handler(call -> entity(projects.update(call.tx(), call.id(), call.argumentsWithoutId()), "project", "updated")))
                .tool(ToolDescriptor.builder("projects_delete")
                        .title("Delete a project")
                        .description("Soft-deletes a project: it disappears from lists and lookups; an operator can restore it.")
                        .scope("projects.write")
                        .inputSchema(JsonSchemas.idOnly("Delete a project", "the project's id"))
                        .outputSchema(deleted)
                        .annotations(ToolAnnotations.delete())
                        .handler(call -> entity(projects.delete(call.tx(), call.id()), "project", "deleted")))
                .tool(ToolDescriptor.builder("projects_cycle_create")
                        .title("Create a cycle")
                        .description("Creates a cycle (a dated iteration) in a project.")
                        .scope("projects.write")
                        .inputSchema(JsonSchemas.withId(cycleCreate, "the project's id"))
                        .outputSchema(cycle)
                        .annotations(ToolAnnotations.create())
                        .handler(call -> entity(cycles.create(call.tx(), call.id(), call.argumentsWithoutId()), "cycle", "created")))
                .tool(ToolDescriptor.builder("planning_allocation_create")
                        .title("Create a planning allocation")
                        .description("Allocates a person to a project (or one issue of it) between two dates, in hours per day or "
                                + "as a percentage of their time.")
                        .scope("planning.write")
                        .inputSchema(allocationCreate)
                        .outputSchema(allocation)
                        .annotations(ToolAnnotations.create())
                        .handler(call -> entity(allocations.create(call.tx(), call.principal().actorId(), call.arguments()),
                                "allocation", "created")));
    }

    private static ToolResult entity(Map<String, Object> data, String type, String action) {
        return ToolResult.of(data, new EntityRef(type, (UUID) data.get("id"), action));
    }

    private static JsonNode deletedSchema() {
        return Json.parse("""
                {"type": "object", "required": ["id", "deleted", "deleted_at"],
                 "properties": {"id": {"type": "string", "format": "uuid"}, "deleted": {"const": true},
                                "deleted_at": {"type": "string", "format": "date-time"}}}
                """);
    }
}
