package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.Listing;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.mcp.ToolAnnotations;
import dev.lnp.api.mcp.ToolDescriptor;
import dev.lnp.api.mcp.ToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** The MCP tools of tasks, tickets, comments and labels; they run the same services as the REST routes. */
record IssueTools(IssueService issues, CommentService comments, LabelService labels, BulkUpdateService bulk,
        IssueSchemas schemas) {

    List<ToolDescriptor> tools() {
        return List.of(
                ToolDescriptor.builder("issues_list")
                        .title("List tasks or tickets")
                        .description("Lists project tasks, or support tickets with kind=ticket; the two are never mixed. Filters: "
                                + "project, cycle, status, priority, assignee or unassigned, label, parent, text; order_by orders the list.")
                        .scope(IssueScopes.READ)
                        .inputSchema(schemas.issueListTool)
                        .outputSchema(schemas.issuePage)
                        .annotations(ToolAnnotations.read())
                        .handler(call -> listed(issues.list(call.tx(), IssueFilter.from(call::text,
                                name -> values(call.arguments().get(name))), call.pageRequest()))),
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
                        .description("Adds a comment, authored by the key's identity (or its delegated user); internal=true makes it "
                                + "an internal note, which is never sent to the customer of a ticket.")
                        .scope(IssueScopes.WRITE)
                        .inputSchema(schemas.commentCreateOnIssue)
                        .outputSchema(schemas.comment)
                        .annotations(ToolAnnotations.create())
                        .handler(call -> {
                            ObjectNode body = call.arguments().deepCopy();
                            body.remove("issue_id");
                            body.remove("id");
                            return written("comment", comments.add(call.tx(), call.principal(),
                                    commentedIssue(call.arguments()), body), "created");
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
                            ObjectNode result = bulk.apply(call.tx(), call.arguments());
                            List<EntityRef> refs = new ArrayList<>();
                            result.get("results").forEach(item -> refs.add(ref(item.get("kind").asText(), item, "updated")));
                            return new ToolResult(result, refs);
                        }),
                ToolDescriptor.builder("issues_label_create")
                        .title("Create a label")
                        .description("Creates a workspace label (name unique ignoring case, color #RRGGBB).")
                        .scope(IssueScopes.WRITE)
                        .inputSchema(schemas.labelCreate)
                        .outputSchema(schemas.label)
                        .annotations(ToolAnnotations.create())
                        .handler(call -> written("label", labels.create(call.tx(), call.arguments()), "created")));
    }

    /** A list page, with every listed task or ticket as an entity of its own kind that was read. */
    private static ToolResult listed(Listing<ObjectNode> page) {
        return new ToolResult(ToolResult.listed(page).data(),
                page.items().stream().map(item -> ref(item.get("kind").asText(), item, "read")).toList());
    }

    /** A repeatable filter's values: an array, or the one string {@code status} also takes. */
    private static List<String> values(JsonNode argument) {
        List<String> values = new ArrayList<>();
        if (argument != null && argument.isTextual()) {
            values.add(argument.asText());
        } else if (argument != null) {
            argument.forEach(value -> values.add(value.asText()));
        }
        return values;
    }

    /** {@code issue_id}, or its deprecated alias {@code id}; exactly one, or two that agree. */
    static UUID commentedIssue(JsonNode arguments) {
        JsonNode issueId = arguments.get("issue_id");
        JsonNode alias = arguments.get("id");
        if (issueId == null && alias == null) {
            throw ApiProblem.invalidField("/issue_id", "required", "issue_id is required");
        }
        if (issueId != null && alias != null && !issueId.asText().equals(alias.asText())) {
            throw ApiProblem.invalidField("/id", "conflict", "id is a deprecated alias of issue_id; send only "
                    + "issue_id");
        }
        return UUID.fromString((issueId != null ? issueId : alias).asText());
    }

    /** A task or ticket that was written, named by its own kind. */
    private static ToolResult entity(ObjectNode issue, String action) {
        return written(issue.get("kind").asText(), issue, action);
    }

    private static ToolResult written(String type, ObjectNode row, String action) {
        return ToolResult.of(row, ref(type, row, action));
    }

    private static EntityRef ref(String type, JsonNode row, String action) {
        return new EntityRef(type, UUID.fromString(row.get("id").asText()), action);
    }
}
