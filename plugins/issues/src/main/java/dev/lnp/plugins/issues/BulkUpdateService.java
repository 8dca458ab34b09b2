package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.lnp.api.Json;
import dev.lnp.api.sql.Column;
import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.plugins.projects.api.ProjectDirectory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * One patch applied to up to 500 tasks and tickets, all or nothing. Everything is checked first, with a fixed
 * number of queries whatever the count; if any item or field fails, nothing is written and the 422 names
 * each failing id by its position. Writes are set-based: one UPDATE per kind, one statement per label change.
 */
final class BulkUpdateService {

    /** Patch fields that are plain columns; add_labels and remove_labels are handled apart. */
    private static final List<String> COLUMNS = List.of("status", "assignee_id", "cycle_id", "priority", "due_at",
            "start_date", "epic_id");

    private final IssueRepository issues;
    private final LabelRepository labels;
    private final Supplier<ProjectDirectory> projects;

    BulkUpdateService(IssueRepository issues, LabelRepository labels, Supplier<ProjectDirectory> projects) {
        this.issues = issues;
        this.labels = labels;
        this.projects = projects;
    }

    ObjectNode apply(WorkspaceTx tx, JsonNode body) {
        List<UUID> ids = new ArrayList<>();
        body.get("issueIds").forEach(id -> ids.add(UUID.fromString(id.asText())));
        JsonNode patch = body.get("patch");
        Map<UUID, IssueRepository.Ref> found = issues.refs(tx.handle(), tx.workspaceId(), ids);

        List<FieldError> errors = new ArrayList<>();
        checkFields(tx, patch, errors);
        if (patch.hasNonNull("assignee_id")) {
            IssueService.checkAssignee(tx, uuid(patch, "assignee_id"), "/patch/assignee_id", errors);
        }
        Optional<UUID> cycleProject = Optional.empty();
        if (patch.hasNonNull("cycle_id")) {
            cycleProject = projects.get().projectOfCycle(tx.handle(), tx.workspaceId(), uuid(patch, "cycle_id"));
            if (cycleProject.isEmpty()) {
                errors.add(new FieldError("/patch/cycle_id", "exists", "cycle_id does not name a cycle of this workspace"));
            }
        }
        UUID epic = patch.hasNonNull("epic_id") ? uuid(patch, "epic_id") : null;
        for (int i = 0; i < ids.size(); i++) {
            UUID id = ids.get(i);
            String pointer = "/issueIds/" + i;
            IssueRepository.Ref ref = found.get(id);
            if (ref == null) {
                errors.add(new FieldError(pointer, "not_found", id + " is not a task or ticket of this workspace"));
                continue;
            }
            if (patch.has("status") && !ref.kind().allows(patch.get("status").asText())) {
                errors.add(new FieldError(pointer, "status", "status " + patch.get("status").asText() + " is not a "
                        + ref.kind().key + " status (" + id + "); " + ref.kind().key + "s accept "
                        + String.join(", ", ref.kind().statuses)));
            }
            if (cycleProject.isPresent() && !cycleProject.get().equals(ref.projectId())) {
                errors.add(new FieldError(pointer, "cycle", "the cycle belongs to another project than " + ref.kind().key
                        + " " + id));
            }
            if (id.equals(epic)) {
                errors.add(new FieldError(pointer, "epic", "task " + id + " cannot be its own epic"));
            }
        }
        if (!errors.isEmpty()) {
            throw new ApiProblem(422, "bulk_update_rejected", "Unprocessable Content", "Nothing was changed: "
                    + errors.size() + " problem(s) among " + ids.size() + " issues; each is listed in errors.",
                    errors, Map.of());
        }
        return write(tx, ids, found, patch);
    }

    private void checkFields(WorkspaceTx tx, JsonNode patch, List<FieldError> errors) {
        if (patch.hasNonNull("epic_id")
                && !issues.exists(tx.handle(), tx.workspaceId(), IssueKind.TASK, uuid(patch, "epic_id"))) {
            errors.add(new FieldError("/patch/epic_id", "exists", "epic_id does not name a task of this workspace"));
        }
        for (String field : List.of("add_labels", "remove_labels")) {
            List<UUID> wanted = uuids(patch.path(field));
            if (wanted.isEmpty()) {
                continue;
            }
            Set<UUID> existing = labels.existing(tx.handle(), tx.workspaceId(), wanted);
            for (int i = 0; i < wanted.size(); i++) {
                if (!existing.contains(wanted.get(i))) {
                    errors.add(new FieldError("/patch/" + field + "/" + i, "exists",
                            wanted.get(i) + " is not a label of this workspace"));
                }
            }
        }
    }

    private ObjectNode write(WorkspaceTx tx, List<UUID> ids, Map<UUID, IssueRepository.Ref> found,
            JsonNode patch) {
        Map<Column, Object> values = new LinkedHashMap<>();
        for (String name : COLUMNS) {
            if (patch.has(name)) {
                Column column = IssueRepository.field(name);
                values.put(column, column.fromJson(patch.get(name)));
            }
        }
        List<UUID> addLabels = uuids(patch.path("add_labels"));
        List<UUID> removeLabels = uuids(patch.path("remove_labels"));
        for (IssueKind kind : IssueKind.values()) {
            List<UUID> ofKind = ids.stream().filter(id -> found.get(id).kind() == kind).toList();
            if (ofKind.isEmpty()) {
                continue;
            }
            issues.updateAll(tx.handle(), tx.workspaceId(), kind, ofKind, values);
            if (!removeLabels.isEmpty()) {
                issues.removeLabels(tx.handle(), tx.workspaceId(), kind, ofKind, removeLabels);
            }
            if (!addLabels.isEmpty()) {
                issues.addLabels(tx.handle(), tx.workspaceId(), kind, ofKind, addLabels);
            }
            for (ObjectNode issue : issues.findAll(tx.handle(), tx.workspaceId(), kind, ofKind)) {
                tx.events().publish(IssueEvents.updated(kind), issue);
            }
        }
        ObjectNode response = Json.object();
        response.put("updated", ids.size());
        ArrayNode results = response.putArray("results");
        for (UUID id : ids) {
            results.addObject().put("id", id.toString()).put("kind", found.get(id).kind().key).put("result", "updated");
        }
        return response;
    }

    private static UUID uuid(JsonNode node, String field) {
        return UUID.fromString(node.get(field).asText());
    }

    private static List<UUID> uuids(JsonNode array) {
        List<UUID> ids = new ArrayList<>();
        array.forEach(id -> ids.add(UUID.fromString(id.asText())));
        return ids;
    }
}
