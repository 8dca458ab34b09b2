package dev.lnp.plugins.issues;

import dev.lnp.api.JsonSchemas;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Project tasks and support tickets behind {@code /api/v1/issues}. Routes are listed here in matching order:
 * literal paths ({@code /labels}, {@code /bulk-update}) before {@code /{id}}, which would otherwise take them.
 * Projects and cycles are checked through the projects plugin's {@link ProjectDirectory}, found at start.
 */
public final class IssuesPlugin implements PlatformPlugin {

    private volatile ProjectDirectory projectDirectory;

    private final IssueRepository issueRepository = new IssueRepository();
    private final LabelRepository labelRepository = new LabelRepository();
    private final IssueService issues = new IssueService(issueRepository, this::projects);
    private final CommentService comments = new CommentService(issues, new CommentRepository());
    private final LabelService labels = new LabelService(labelRepository);
    private final BulkUpdateService bulk = new BulkUpdateService(issueRepository, labelRepository, this::projects);

    private final JsonNode issueCreate = JsonSchemas.load(IssuesPlugin.class, "issue-create.json");
    private final JsonNode issuePatch = patchSchema(issueCreate);
    private final JsonNode issue = JsonSchemas.load(IssuesPlugin.class, "issue.json");
    private final JsonNode commentCreate = JsonSchemas.load(IssuesPlugin.class, "comment-create.json");
    private final JsonNode comment = JsonSchemas.load(IssuesPlugin.class, "comment.json");
    private final JsonNode labelCreate = JsonSchemas.load(IssuesPlugin.class, "label-create.json");
    private final JsonNode label = JsonSchemas.load(IssuesPlugin.class, "label.json");
    private final JsonNode bulkUpdate = JsonSchemas.load(IssuesPlugin.class, "bulk-update.json");
    private final JsonNode bulkResult = JsonSchemas.load(IssuesPlugin.class, "bulk-result.json");

    private static final QueryParam[] LIST_FILTERS = {
            QueryParam.oneOf("kind", List.of("task", "ticket"), "which collection; tasks when omitted"),
            QueryParam.uuid("project_id", "only items of this project"),
            QueryParam.string("status", "exact status value"),
            QueryParam.string("search", "text contained in the title or description, ignoring case")};

    @Override
    public void register(Registrar registrar) {
        registrar.scope("issues.read", "Read tasks, tickets, comments and labels")
                .scope("issues.write", "Create and update tasks and tickets, comment, bulk-update, delete tasks")
                .migrations("issues")
                .provide(IssueDirectory.class, new IssueDirectoryImpl(issueRepository));

        registrar.route(RouteSpec.get("/api/v1/issues").scope("issues.read").paginated().query(LIST_FILTERS)
                        .summary("List tasks (default) or tickets (kind=ticket)").handler(this::list))
                .route(RouteSpec.post("/api/v1/issues").scope("issues.write").body(issueCreate)
                        .summary("Create a task or a ticket")
                        .handler(r -> ApiResponse.of(issues.create(r.tx(), actor(r), r.body()))))
                .route(RouteSpec.get("/api/v1/issues/labels").scope("issues.read").paginated()
                        .summary("List the workspace's labels").handler(this::listLabels))
                .route(RouteSpec.post("/api/v1/issues/labels").scope("issues.write").body(labelCreate)
                        .summary("Create a label").handler(r -> ApiResponse.of(labels.create(r.tx(), r.body()))))
                .route(RouteSpec.post("/api/v1/issues/bulk-update").scope("issues.write").body(bulkUpdate).status(200)
                        .summary("Apply one patch to up to 500 tasks and tickets, all or nothing")
                        .handler(r -> ApiResponse.of(bulk.apply(r.tx(), r.body()))))
                .route(RouteSpec.get("/api/v1/issues/{id}").scope("issues.read")
                        .summary("One task or ticket").handler(r -> ApiResponse.of(issues.get(r.tx(), r.pathId("id")))))
                .route(RouteSpec.patch("/api/v1/issues/{id}").scope("issues.write").body(issuePatch)
                        .summary("Update a task or ticket (kind may be repeated, never changed)")
                        .handler(r -> ApiResponse.of(issues.update(r.tx(), r.pathId("id"), r.body()))))
                .route(RouteSpec.delete("/api/v1/issues/{id}").scope("issues.write")
                        .summary("Soft-delete a task (tickets: 409 ticket_delete_not_supported)")
                        .handler(r -> ApiResponse.of(issues.delete(r.tx(), r.pathId("id")))))
                .route(RouteSpec.get("/api/v1/issues/{id}/comments").scope("issues.read").paginated()
                        .summary("Comments of a task or ticket").handler(this::listComments))
                .route(RouteSpec.post("/api/v1/issues/{id}/comments").scope("issues.write").body(commentCreate)
                        .summary("Comment on a task or ticket")
                        .handler(r -> ApiResponse.of(comments.add(r.tx(), r.principal().orElseThrow(),
                                r.pathId("id"), r.body()))))
                .route(RouteSpec.get("/api/v1/projects/{id}/issues").scope("issues.read").paginated()
                        .summary("The tasks of a project").handler(this::listProjectTasks));

        JsonNode deleted = deletedSchema();
        registrar.event(new EventType("issues.task.created", "A project task was created", issue, List.of("issue.created")))
                .event(new EventType("issues.task.updated", "A project task was updated (also once per task by a bulk update)",
                        issue, List.of("issue.updated")))
                .event(new EventType("issues.task.deleted", "A project task was soft-deleted", deleted,
                        List.of("issue.deleted")))
                .event(new EventType("issues.ticket.created", "A support ticket was created", issue,
                        List.of("ticket.created")))
                .event(new EventType("issues.ticket.updated", "A support ticket was updated (also once per ticket by a "
                        + "bulk update)", issue, List.of("ticket.updated")))
                .event(new EventType(CommentService.CREATED, "A comment was added to a task or ticket", comment,
                        List.of("issue.comment.created")));

        registerTools(registrar, deleted);
    }

    @Override
    public void start(PluginContext context) {
        projectDirectory = context.service(ProjectDirectory.class).orElseThrow(() -> new IllegalStateException(
                "The issues plugin needs the projects plugin's ProjectDirectory; is the projects plugin enabled?"));
    }

    private ProjectDirectory projects() {
        return projectDirectory;
    }

    /** Tasks and tickets are never merged: one kind per request, tasks when none is named. */
    private ApiResponse list(ApiRequest request) {
        IssueKind kind = IssueKind.of(request.query("kind").orElse("task"));
        var filter = new IssueRepository.Filter(request.query("project_id").map(UUID::fromString).orElse(null),
                request.query("status").orElse(null), request.query("search").filter(s -> !s.isBlank()).orElse(null));
        var listing = issues.list(request.tx(), kind, filter, request.pageRequest());
        return ApiResponse.page(listing.items(), listing.page());
    }

    private ApiResponse listProjectTasks(ApiRequest request) {
        var listing = issues.projectTasks(request.tx(), request.pathId("id"), request.pageRequest());
        return ApiResponse.page(listing.items(), listing.page());
    }

    private ApiResponse listComments(ApiRequest request) {
        var listing = comments.list(request.tx(), request.pathId("id"), request.pageRequest());
        return ApiResponse.page(listing.items(), listing.page());
    }

    private ApiResponse listLabels(ApiRequest request) {
        var listing = labels.list(request.tx(), request.pageRequest());
        return ApiResponse.page(listing.items(), listing.page());
    }

    private static UUID actor(ApiRequest request) {
        return request.principal().map(p -> p.actorId()).orElse(null);
    }

    /**
     * PATCH accepts the create fields; null clears an optional field. {@code kind} may be repeated (clients that
     * send the whole item back) but never changed: {@link IssueService#update} compares it with the stored kind.
     */
    private static JsonNode patchSchema(JsonNode create) {
        ObjectNode patch = JsonSchemas.patchOf(create, "Issue update", Set.of("kind", "title", "status", "priority"));
        ((ObjectNode) patch.get("properties").get("kind")).put("description",
                "the item's current kind, accepted unchanged; a different kind is refused (422)");
        return patch;
    }

    private void registerTools(Registrar registrar, JsonNode deleted) {
        ObjectNode listFilters = Json.object();
        listFilters.set("kind", Json.object().put("type", "string").put("description", "task (default) or ticket")
                .set("enum", Json.mapper().createArrayNode().add("task").add("ticket")));
        listFilters.set("project_id", Json.object().put("type", "string").put("format", "uuid"));
        listFilters.set("status", Json.object().put("type", "string").put("maxLength", 500)
                .put("description", "exact status value"));
        listFilters.set("search", Json.object().put("type", "string").put("maxLength", 500)
                .put("description", "text contained in the title or description"));
        registrar.tool(ToolDescriptor.builder("issues_list")
                        .title("List tasks or tickets")
                        .description("Lists project tasks, or support tickets with kind=ticket; the two are never mixed.")
                        .scope("issues.read")
                        .inputSchema(JsonSchemas.pageInput("List issues", listFilters))
                        .outputSchema(JsonSchemas.pageOutput(issue))
                        .annotations(ToolAnnotations.read())
                        .handler(call -> {
                            JsonNode a = call.arguments();
                            var filter = new IssueRepository.Filter(
                                    a.hasNonNull("project_id") ? UUID.fromString(a.get("project_id").asText()) : null,
                                    a.hasNonNull("status") ? a.get("status").asText() : null,
                                    a.hasNonNull("search") && !a.get("search").asText().isBlank()
                                            ? a.get("search").asText() : null);
                            var listing = issues.list(call.tx(), IssueKind.of(a.path("kind").asText("task")), filter,
                                    call.pageRequest());
                            return ToolResult.of(Map.of("items", listing.items(), "pagination", listing.page()));
                        }))
                .tool(ToolDescriptor.builder("issues_get")
                        .title("Get a task or ticket")
                        .description("One task or ticket by id.")
                        .scope("issues.read")
                        .inputSchema(JsonSchemas.idOnly("Get an issue", "the task's or ticket's id"))
                        .outputSchema(issue)
                        .annotations(ToolAnnotations.read())
                        .handler(call -> ToolResult.of(issues.get(call.tx(), call.id()))))
                .tool(ToolDescriptor.builder("issues_create")
                        .title("Create a task or ticket")
                        .description("Creates a project task (kind task) or a support ticket (kind ticket). Labels are attached "
                                + "afterwards with issues_bulk_update.")
                        .scope("issues.write")
                        .inputSchema(issueCreate)
                        .outputSchema(issue)
                        .annotations(ToolAnnotations.create())
                        .handler(call -> entity(issues.create(call.tx(), call.principal().actorId(), call.arguments()),
                                "created")))
                .tool(ToolDescriptor.builder("issues_update")
                        .title("Update a task or ticket")
                        .description("Changes the given fields; the kind stays. null clears an optional field.")
                        .scope("issues.write")
                        .inputSchema(JsonSchemas.withId(issuePatch, "the task's or ticket's id"))
                        .outputSchema(issue)
                        .annotations(ToolAnnotations.update())
                        .handler(call -> entity(issues.update(call.tx(), call.id(), call.argumentsWithoutId()), "updated")))
                .tool(ToolDescriptor.builder("issues_delete_task")
                        .title("Delete a project task")
                        .description("Soft-deletes a project task. Support tickets cannot be deleted (the call fails and the ticket "
                                + "is left as it is).")
                        .scope("issues.write")
                        .inputSchema(JsonSchemas.idOnly("Delete a task", "the task's id"))
                        .outputSchema(deleted)
                        .annotations(ToolAnnotations.delete())
                        .handler(call -> entity(issues.delete(call.tx(), call.id()), "deleted")))
                .tool(ToolDescriptor.builder("issues_comment")
                        .title("Comment on a task or ticket")
                        .description("Adds a comment, authored by the key's identity (or its delegated user).")
                        .scope("issues.write")
                        .inputSchema(JsonSchemas.withId(commentCreate, "the task's or ticket's id"))
                        .outputSchema(comment)
                        .annotations(ToolAnnotations.create())
                        .handler(call -> {
                            Map<String, Object> created = comments.add(call.tx(), call.principal(), call.id(),
                                    call.argumentsWithoutId());
                            return ToolResult.of(created, new EntityRef("comment", (UUID) created.get("id"), "created"));
                        }))
                .tool(ToolDescriptor.builder("issues_bulk_update")
                        .title("Bulk-update tasks and tickets")
                        .description("Applies one patch (status, assignee, cycle, priority, dates, epic, labels) to 1 to 500 "
                                + "items, all or nothing.")
                        .scope("issues.write")
                        .inputSchema(bulkUpdate)
                        .outputSchema(bulkResult)
                        .annotations(ToolAnnotations.update())
                        .handler(call -> {
                            Map<String, Object> result = bulk.apply(call.tx(), call.arguments());
                            List<EntityRef> refs = new ArrayList<>();
                            for (Object r : (List<?>) result.get("results")) {
                                Map<?, ?> item = (Map<?, ?>) r;
                                refs.add(new EntityRef((String) item.get("kind"), (UUID) item.get("id"), "updated"));
                            }
                            return new ToolResult(result, refs);
                        }))
                .tool(ToolDescriptor.builder("issues_label_create")
                        .title("Create a label")
                        .description("Creates a workspace label (name unique ignoring case, color #RRGGBB).")
                        .scope("issues.write")
                        .inputSchema(labelCreate)
                        .outputSchema(label)
                        .annotations(ToolAnnotations.create())
                        .handler(call -> {
                            Map<String, Object> created = labels.create(call.tx(), call.arguments());
                            return ToolResult.of(created, new EntityRef("label", (UUID) created.get("id"), "created"));
                        }));
    }

    private static ToolResult entity(Map<String, Object> data, String action) {
        return ToolResult.of(data, new EntityRef((String) data.get("kind"), (UUID) data.get("id"), action));
    }

    private static JsonNode deletedSchema() {
        return Json.parse("""
                {"type": "object", "required": ["id", "kind", "deleted", "deleted_at"],
                 "properties": {"id": {"type": "string", "format": "uuid"}, "kind": {"const": "task"},
                                "deleted": {"const": true}, "deleted_at": {"type": "string", "format": "date-time"}}}
                """);
    }
}
