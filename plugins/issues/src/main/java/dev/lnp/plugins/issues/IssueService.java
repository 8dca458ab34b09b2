package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.sql.Column;
import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Deleted;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.Listing;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.sql.JsonRows;
import dev.lnp.plugins.projects.api.ProjectDirectory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Task and ticket rules shared by the REST routes and the MCP tools. Bodies arrive schema-checked; what only
 * the database can answer (references, status per kind) is checked here, all errors reported together.
 */
final class IssueService {

    /** The fields of the Issue table: what create accepts. */
    static final List<String> WRITABLE = List.of("title", "description", "status", "priority", "project_id",
            "assignee_id", "due_at", "parent_id", "cycle_id", "estimate_hours");

    /**
     * What an update accepts: the create fields, and the two planning fields every issue returns and the bulk
     * patch sets, so that a client can send back a field it read.
     */
    static final List<String> UPDATABLE = java.util.stream.Stream.concat(WRITABLE.stream(),
            java.util.stream.Stream.of("start_date", "epic_id")).toList();

    private final IssueRepository issues;
    private final Supplier<ProjectDirectory> projects;

    IssueService(IssueRepository issues, Supplier<ProjectDirectory> projects) {
        this.issues = issues;
        this.projects = projects;
    }

    /** Tasks and tickets are never merged: one kind per list. Streamed from the result set into the response. */
    JsonRows page(WorkspaceTx tx, IssueFilter filter, PageRequest page) {
        return issues.page(tx.handle(), tx.workspaceId(), filter, page);
    }

    /** The same page as a list, for the list tool. */
    Listing<ObjectNode> list(WorkspaceTx tx, IssueFilter filter, PageRequest page) {
        long total = issues.count(tx.handle(), tx.workspaceId(), filter);
        return Listing.of(issues.list(tx.handle(), tx.workspaceId(), filter, page), page, total);
    }

    /** A page of the application's lists: its items and whether another page follows, without a count. */
    record Rows(List<ObjectNode> items, boolean hasMore) {
    }

    Rows rows(WorkspaceTx tx, IssueFilter filter, PageRequest page) {
        List<ObjectNode> read = issues.listAndOneMore(tx.handle(), tx.workspaceId(), filter, page);
        boolean more = read.size() > page.limit();
        return new Rows(more ? read.subList(0, page.limit()) : read, more);
    }

    /** The tasks of one live project of the workspace, with the list's other filters. */
    JsonRows projectTasks(WorkspaceTx tx, UUID projectId, IssueFilter filter, PageRequest page) {
        if (!projects.get().exists(tx.handle(), tx.workspaceId(), projectId)) {
            throw ApiProblem.notFound("Project");
        }
        return page(tx, filter.tasksOf(projectId), page);
    }

    ObjectNode get(WorkspaceTx tx, UUID id) {
        IssueRepository.Ref ref = ref(tx, id);
        return issues.find(tx.handle(), tx.workspaceId(), ref.kind(), id, false).orElseThrow(IssueService::notFound);
    }

    ObjectNode create(WorkspaceTx tx, UUID actorId, JsonNode body) {
        IssueKind kind = IssueKind.of(body.get("kind").asText());
        Map<Column, Object> values = values(body);
        values.putIfAbsent(IssueRepository.field("status"), kind.defaultStatus);
        List<FieldError> errors = new ArrayList<>();
        checkStatus(kind, (String) values.get(IssueRepository.field("status")), "/status", errors);
        UUID project = (UUID) values.get(IssueRepository.field("project_id"));
        checkProject(tx, project, errors);
        checkCycle(tx, project, (UUID) values.get(IssueRepository.field("cycle_id")), errors);
        checkAssignee(tx, (UUID) values.get(IssueRepository.field("assignee_id")), "/assignee_id", errors);
        UUID parent = (UUID) values.get(IssueRepository.field("parent_id"));
        if (parent != null && !issues.exists(tx.handle(), tx.workspaceId(), kind, parent)) {
            errors.add(new FieldError("/parent_id", "exists", "parent_id does not name a " + kind.key
                    + " of this workspace (a parent is of the same kind)"));
        }
        failIfAny(errors);
        ObjectNode issue = issues.insert(tx.handle(), tx.workspaceId(), kind, actorId, values);
        tx.events().publish(IssueEvents.created(kind), issue);
        return issue;
    }

    /** The item keeps its kind; the cycle is checked against the project the item has after the update. */
    ObjectNode update(WorkspaceTx tx, UUID id, JsonNode body) {
        IssueKind kind = ref(tx, id).kind();
        ObjectNode stored = issues.find(tx.handle(), tx.workspaceId(), kind, id, true)
                .orElseThrow(IssueService::notFound);
        Map<Column, Object> values = values(body, UPDATABLE);
        List<FieldError> errors = new ArrayList<>();
        checkKindUnchanged(kind, body, errors);
        if (body.has("status")) {
            checkStatus(kind, body.get("status").asText(), "/status", errors);
        }
        UUID storedProject = uuid(stored, "project_id");
        UUID project = body.has("project_id") ? (UUID) values.get(IssueRepository.field("project_id")) : storedProject;
        UUID cycle = (UUID) IssueRepository.field("cycle_id").fromJson((body.has("cycle_id") ? body : stored).get("cycle_id"));
        if (body.has("project_id") && project != null && !Objects.equals(project, storedProject)) {
            checkProject(tx, project, errors);
        }
        if ((body.has("project_id") || body.has("cycle_id")) && errors.stream().noneMatch(e -> e.pointer().equals("/project_id"))) {
            checkCycle(tx, project, cycle, errors);
        }
        checkAssignee(tx, (UUID) values.get(IssueRepository.field("assignee_id")), "/assignee_id", errors);
        UUID parent = (UUID) values.get(IssueRepository.field("parent_id"));
        if (parent != null) {
            if (!issues.exists(tx.handle(), tx.workspaceId(), kind, parent)) {
                errors.add(new FieldError("/parent_id", "exists", "parent_id does not name a " + kind.key
                        + " of this workspace (a parent is of the same kind)"));
            } else if (issues.isAncestorOrSelf(tx.handle(), tx.workspaceId(), kind, parent, id)) {
                errors.add(new FieldError("/parent_id", "cycle", "parent_id would make this " + kind.key
                        + " its own ancestor"));
            }
        }
        // The bulk patch's rules: an epic is a task of the workspace, and not the item itself.
        UUID epic = (UUID) values.get(IssueRepository.field("epic_id"));
        if (epic != null) {
            if (epic.equals(id)) {
                errors.add(new FieldError("/epic_id", "epic", "a task cannot be its own epic"));
            } else if (!issues.exists(tx.handle(), tx.workspaceId(), IssueKind.TASK, epic)) {
                errors.add(new FieldError("/epic_id", "exists", "epic_id does not name a task of this workspace"));
            }
        }
        failIfAny(errors);
        ObjectNode issue = issues.update(tx.handle(), tx.workspaceId(), kind, id, values);
        tx.events().publish(IssueEvents.updated(kind), issue);
        return issue;
    }

    /** Tasks are soft-deleted; tickets cannot be deleted here and stay exactly as they are. */
    Deleted delete(WorkspaceTx tx, UUID id) {
        IssueRepository.Ref ref = ref(tx, id);
        if (ref.kind() == IssueKind.TICKET) {
            throw ApiProblem.conflict("ticket_delete_not_supported", "Support tickets cannot be deleted through "
                    + "DELETE /api/v1/issues/{id}; this route only deletes project tasks. Close the ticket instead "
                    + "(PATCH status to closed).");
        }
        Deleted deleted = Deleted.soft(id, issues.softDeleteTask(tx.handle(), tx.workspaceId(), id)
                .orElseThrow(IssueService::notFound)).withKind(IssueKind.TASK.key);
        tx.events().publish(IssueEvents.TASK_DELETED, deleted.toJson());
        return deleted;
    }

    IssueRepository.Ref ref(WorkspaceTx tx, UUID id) {
        return issues.ref(tx.handle(), tx.workspaceId(), id).orElseThrow(IssueService::notFound);
    }

    /** {@code kind} is accepted when it repeats the item's kind and comes with a field that changes something. */
    private static void checkKindUnchanged(IssueKind kind, JsonNode body, List<FieldError> errors) {
        if (!body.has("kind")) {
            return;
        }
        if (!kind.key.equals(body.get("kind").asText())) {
            errors.add(new FieldError("/kind", "immutable", "kind cannot be changed by an update (this item is a "
                    + kind.key + "); create a new item of the other kind instead"));
        } else if (body.size() == 1) {
            errors.add(new FieldError("/kind", "nothing_to_update",
                    "kind alone changes nothing; send at least one other field with it"));
        }
    }

    static void checkStatus(IssueKind kind, String status, String pointer, List<FieldError> errors) {
        if (status != null && !kind.allows(status)) {
            errors.add(new FieldError(pointer, "enum", "status " + status + " is not a " + kind.key + " status; "
                    + kind.key + "s accept " + String.join(", ", kind.statuses)));
        }
    }

    /** An assignee is a person of this workspace; null clears it. */
    static void checkAssignee(WorkspaceTx tx, UUID assignee, String pointer, List<FieldError> errors) {
        if (assignee != null && !tx.isUser(assignee)) {
            errors.add(new FieldError(pointer, "exists", pointer.substring(1)
                    + " does not name a user of this workspace"));
        }
    }

    private void checkProject(WorkspaceTx tx, UUID project, List<FieldError> errors) {
        if (project != null && !projects.get().exists(tx.handle(), tx.workspaceId(), project)) {
            errors.add(new FieldError("/project_id", "exists", "project_id does not name a project of this workspace"));
        }
    }

    private void checkCycle(WorkspaceTx tx, UUID project, UUID cycle, List<FieldError> errors) {
        if (cycle == null) {
            return;
        }
        if (project == null) {
            errors.add(new FieldError("/cycle_id", "project", "cycle_id needs a project_id: a cycle belongs to a project"));
        } else if (!projects.get().cycleBelongs(tx.handle(), tx.workspaceId(), project, cycle)) {
            errors.add(new FieldError("/cycle_id", "exists", "cycle_id does not name a cycle of the issue's project"));
        }
    }

    private static Map<Column, Object> values(JsonNode body) {
        return values(body, WRITABLE);
    }

    private static Map<Column, Object> values(JsonNode body, List<String> fields) {
        Map<Column, Object> values = new LinkedHashMap<>();
        for (String name : fields) {
            if (body.has(name)) {
                Column column = IssueRepository.field(name);
                values.put(column, column.fromJson(body.get(name)));
            }
        }
        return values;
    }

    /** A uuid field of a stored row; null when the row has none. */
    private static UUID uuid(ObjectNode row, String field) {
        return (UUID) IssueRepository.field(field).fromJson(row.get(field));
    }

    static void failIfAny(List<FieldError> errors) {
        if (!errors.isEmpty()) {
            throw ApiProblem.invalid(errors.size() == 1 ? errors.get(0).message()
                    : errors.size() + " fields are invalid", errors);
        }
    }

    static ApiProblem notFound() {
        return ApiProblem.notFound("Issue");
    }
}
