package dev.lnp.plugins.issues;

import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.mcp.ToolAnnotations;
import dev.lnp.api.mcp.ToolDescriptor;
import dev.lnp.api.mcp.ToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The MCP tools of tasks, tickets, comments and labels; they run the same services as the REST routes. */
final class IssueTools {

    private final IssueService issues;
    private final CommentService comments;
    private final LabelService labels;
    private final BulkUpdateService bulk;
    private final IssueSchemas schemas;

    IssueTools(IssueService issues, CommentService comments, LabelService labels, BulkUpdateService bulk,
            IssueSchemas schemas) {
        this.issues = issues;
        this.comments = comments;
        this.labels = labels;
        this.bulk = bulk;
        this.schemas = schemas;
    }

    List<ToolDescriptor> tools() {
        return List.of(
                ToolDescriptor.builder("issues_list")
                        .title("List tasks or tickets")
                        .description("Lists project tasks, or support tickets with kind=ticket; the two are never mixed.")
                        .scope(IssueScopes.READ)
                        .inputSchema(schemas.issueList)
                        .outputSchema(schemas.issuePage)
                        .annotations(ToolAnnotations.read())
                        .handler(call -> issues.list(call.tx(), IssueFilter.from(call::text), call.pageRequest())
                                .toolResult()),
                ToolDescriptor.builder("issues_get")
                        .title("Get a task or ticket")
                        .description("One task or ticket by id.")
                        .scope(IssueScopes.READ)
                        .inputSchema(schemas.issueGet)
                        .outputSchema(schemas.issue)
                        .annotations(ToolAnnotations.read())
                        .handler(call -> ToolResult.of(issues.get(call.tx(), call.id()))),
                ToolDescriptor.builder("issues_create")
                        .title("Create a task or ticket")
                        .description("Creates a project task (kind task) or a support ticket (kind ticket). Labels are attached "
                                + "afterwards with issues_bulk_update.")
                        .scope(IssueScopes.WRITE)
                        .inputSchema(schemas.issueCreate)
                        .outputSchema(schemas.issue)
                        .annotations(ToolAnnotations.create())
                        .handler(call -> entity(issues.create(call.tx(), call.principal().actorId(), call.arguments()),
                                "created")),
                ToolDescriptor.builder("issues_update")
                        .title("Update a task or ticket")
                        .description("Changes the given fields; the kind stays. null clears an optional field.")
                        .scope(IssueScopes.WRITE)
                        .inputSchema(schemas.issueUpdate)
                        .outputSchema(schemas.issue)
                        .annotations(ToolAnnotations.update())
                        .handler(call -> entity(issues.update(call.tx(), call.id(), call.argumentsWithoutId()), "updated")),
                ToolDescriptor.builder("issues_delete_task")
                        .title("Delete a project task")
                        .description("Soft-deletes a project task. Support tickets cannot be deleted (the call fails and the ticket "
                                + "is left as it is).")
                        .scope(IssueScopes.WRITE)
                        .inputSchema(schemas.taskDelete)
                        .outputSchema(schemas.deleted)
                        .annotations(ToolAnnotations.delete())
                        .handler(call -> {
                            var deleted = issues.delete(call.tx(), call.id());
                            return ToolResult.of(deleted.toJson(), new EntityRef(deleted.kind(), deleted.id(), "deleted"));
                        }),
                ToolDescriptor.builder("issues_comment")
                        .title("Comment on a task or ticket")
                        .description("Adds a comment, authored by the key's identity (or its delegated user).")
                        .scope(IssueScopes.WRITE)
                        .inputSchema(schemas.commentCreateOnIssue)
                        .outputSchema(schemas.comment)
                        .annotations(ToolAnnotations.create())
                        .handler(call -> {
                            Map<String, Object> created = comments.add(call.tx(), call.principal(), call.id(),
                                    call.argumentsWithoutId());
                            return ToolResult.of(created, new EntityRef("comment", (UUID) created.get("id"), "created"));
                        }),
                ToolDescriptor.builder("issues_bulk_update")
                        .title("Bulk-update tasks and tickets")
                        .description("Applies one patch (status, assignee, cycle, priority, dates, epic, labels) to 1 to 500 "
                                + "items, all or nothing.")
                        .scope(IssueScopes.WRITE)
                        .inputSchema(schemas.bulkUpdate)
                        .outputSchema(schemas.bulkResult)
                        .annotations(ToolAnnotations.update())
                        .handler(call -> {
                            Map<String, Object> result = bulk.apply(call.tx(), call.arguments());
                            List<EntityRef> refs = new ArrayList<>();
                            for (Object r : (List<?>) result.get("results")) {
                                Map<?, ?> item = (Map<?, ?>) r;
                                refs.add(new EntityRef((String) item.get("kind"), (UUID) item.get("id"), "updated"));
                            }
                            return new ToolResult(result, refs);
                        }),
                ToolDescriptor.builder("issues_label_create")
                        .title("Create a label")
                        .description("Creates a workspace label (name unique ignoring case, color #RRGGBB).")
                        .scope(IssueScopes.WRITE)
                        .inputSchema(schemas.labelCreate)
                        .outputSchema(schemas.label)
                        .annotations(ToolAnnotations.create())
                        .handler(call -> {
                            Map<String, Object> created = labels.create(call.tx(), call.arguments());
                            return ToolResult.of(created, new EntityRef("label", (UUID) created.get("id"), "created"));
                        }));
    }

    private static ToolResult entity(Map<String, Object> data, String action) {
        return ToolResult.of(data, new EntityRef((String) data.get("kind"), (UUID) data.get("id"), action));
    }
}
