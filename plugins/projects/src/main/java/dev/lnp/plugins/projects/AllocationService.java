package dev.lnp.plugins.projects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Deleted;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.Listing;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.sql.Column;
import dev.lnp.plugins.projects.api.IssueDirectory;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Planning allocations: a person's time on a project (or one issue of it) between two dates. An allocation that
 * books a person beyond their capacity is accepted; {@link CapacityService} flags the week (docs/projects-and-issues.md).
 */
final class AllocationService {

    private final ProjectRepository projects;
    private final AllocationRepository allocations;
    /** Looked up per request; empty when the issues plugin is not loaded. */
    private final Supplier<Optional<IssueDirectory>> issues;

    AllocationService(ProjectRepository projects, AllocationRepository allocations,
            Supplier<Optional<IssueDirectory>> issues) {
        this.projects = projects;
        this.allocations = allocations;
        this.issues = issues;
    }

    Listing<ObjectNode> list(WorkspaceTx tx, UUID userId, UUID projectId, PageRequest page) {
        long total = allocations.count(tx.handle(), tx.workspaceId(), userId, projectId);
        return Listing.of(allocations.list(tx.handle(), tx.workspaceId(), userId, projectId, page.limit(),
                page.offset()), page, total);
    }

    ObjectNode get(WorkspaceTx tx, UUID id) {
        return allocations.find(tx.handle(), tx.workspaceId(), id, false).orElseThrow(AllocationService::notFound);
    }

    ObjectNode create(WorkspaceTx tx, UUID actorId, JsonNode body) {
        Map<Column, Object> values = new LinkedHashMap<>();
        for (Column column : AllocationRepository.FIELDS) {
            values.put(column, column.fromJson(body.get(column.name())));
        }
        List<FieldError> errors = new ArrayList<>();
        checkDates((LocalDate) values.get(field("start_date")), (LocalDate) values.get(field("end_date")), errors);
        boolean hours = body.has("hours_per_day");
        if (hours == body.has("percentage")) {
            errors.add(hours ? both() : new FieldError("/hours_per_day", "one_of",
                    "give exactly one of hours_per_day (0 < h <= 24) or percentage (0 < p <= 100)"));
        }
        UUID projectId = (UUID) values.get(field("project_id"));
        if (projectId == null && values.get(field("issue_id")) == null) {
            errors.add(new FieldError("/project_id", "required", "project_id is required unless issue_id is given"));
        }
        checkProject(tx, projectId, errors);
        checkIssue(tx, values, projectId, errors);
        failIfAny(errors);
        ObjectNode allocation = allocations.insert(tx.handle(), tx.workspaceId(), actorId, values);
        tx.events().publish(ProjectEvents.ALLOCATION_CREATED, allocation);
        return allocation;
    }

    /**
     * The allocation as it would be after the patch must keep every create rule. Sending one of hours_per_day or
     * percentage switches the unit (the other is cleared); issue_id without project_id moves the allocation to the
     * issue's project, as on create; project_id alone must still hold the stored issue.
     */
    ObjectNode update(WorkspaceTx tx, UUID id, JsonNode body) {
        ObjectNode stored = allocations.find(tx.handle(), tx.workspaceId(), id, true)
                .orElseThrow(AllocationService::notFound);
        Map<Column, Object> values = new LinkedHashMap<>();
        for (Column column : AllocationRepository.FIELDS) {
            if (body.has(column.name())) {
                values.put(column, column.fromJson(body.get(column.name())));
            }
        }
        List<FieldError> errors = new ArrayList<>();
        checkDates((LocalDate) after(values, stored, "start_date"), (LocalDate) after(values, stored, "end_date"),
                errors);
        if (body.has("hours_per_day") && body.has("percentage")) {
            errors.add(both());
        } else if (body.has("hours_per_day")) {
            values.put(field("percentage"), null);
        } else if (body.has("percentage")) {
            values.put(field("hours_per_day"), null);
        }
        UUID projectId = (UUID) values.get(field("project_id"));
        if (projectId != null && !projectId.equals(after(Map.of(), stored, "project_id"))) {
            checkProject(tx, projectId, errors);
        }
        if (body.has("issue_id") || body.has("project_id")) {
            Map<Column, Object> issue = new LinkedHashMap<>();
            issue.put(field("issue_id"), after(values, stored, "issue_id"));
            checkIssue(tx, issue, projectId, errors);
            if (projectId == null && issue.containsKey(field("project_id"))) {
                values.put(field("project_id"), issue.get(field("project_id")));
            }
            if (after(values, stored, "project_id") == null && issue.get(field("issue_id")) == null) {
                errors.add(new FieldError("/project_id", "required", "project_id is required unless issue_id is given"));
            }
        }
        failIfAny(errors);
        ObjectNode allocation = allocations.update(tx.handle(), tx.workspaceId(), id, values);
        tx.events().publish(ProjectEvents.ALLOCATION_UPDATED, allocation);
        return allocation;
    }

    /** For good: a plan entry taken back leaves nothing to restore. */
    Deleted delete(WorkspaceTx tx, UUID id) {
        if (!allocations.delete(tx.handle(), tx.workspaceId(), id)) {
            throw notFound();
        }
        Deleted deleted = Deleted.of(id);
        tx.events().publish(ProjectEvents.ALLOCATION_DELETED, deleted.toJson());
        return deleted;
    }

    /** A field's value after the patch: the patched one, else the stored one. */
    private static Object after(Map<Column, Object> values, ObjectNode stored, String name) {
        Column column = field(name);
        return values.containsKey(column) ? values.get(column) : column.fromJson(stored.get(name));
    }

    private void checkProject(WorkspaceTx tx, UUID projectId, List<FieldError> errors) {
        if (projectId != null && !projects.exists(tx.handle(), tx.workspaceId(), projectId)) {
            errors.add(new FieldError("/project_id", "exists", "project_id does not name a project of this workspace"));
        }
    }

    /**
     * A named issue is a live task or ticket of the workspace, of {@code projectId} when one is given; without
     * one, {@code values} takes the issue's project.
     */
    private void checkIssue(WorkspaceTx tx, Map<Column, Object> values, UUID projectId, List<FieldError> errors) {
        UUID issueId = (UUID) values.get(field("issue_id"));
        if (issueId == null) {
            return;
        }
        var directory = issues.get();
        var issue = directory.flatMap(d -> d.find(tx.handle(), tx.workspaceId(), issueId));
        if (directory.isEmpty()) {
            errors.add(new FieldError("/issue_id", "unavailable", "issues are not enabled on this platform"));
        } else if (issue.isEmpty()) {
            errors.add(new FieldError("/issue_id", "exists", "issue_id does not name an issue of this workspace"));
        } else if (projectId != null && !projectId.equals(issue.get().projectId())) {
            errors.add(new FieldError("/issue_id", "project", "the issue does not belong to project_id"));
        } else if (projectId == null) {
            values.put(field("project_id"), issue.get().projectId());
        }
    }

    private static void checkDates(LocalDate start, LocalDate end, List<FieldError> errors) {
        if (end.isBefore(start)) {
            errors.add(new FieldError("/end_date", "date_order",
                    "end_date " + end + " is before start_date " + start + "; it must be on or after it"));
        }
    }

    private static FieldError both() {
        return new FieldError("/percentage", "one_of", "give either hours_per_day or percentage, not both");
    }

    private static void failIfAny(List<FieldError> errors) {
        if (!errors.isEmpty()) {
            throw ApiProblem.invalid(errors.get(0).message(), errors);
        }
    }

    private static ApiProblem notFound() {
        return ApiProblem.notFound("Allocation");
    }

    private static Column field(String name) {
        return AllocationRepository.FIELDS.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }
}
