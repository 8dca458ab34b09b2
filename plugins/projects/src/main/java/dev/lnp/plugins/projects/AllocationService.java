package dev.lnp.plugins.projects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.sql.Column;
import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.Listing;
import dev.lnp.api.http.PageRequest;
import dev.lnp.plugins.projects.api.IssueDirectory;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/** Planning allocations: a person's time on a project (or one issue of it) between two dates. */
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

    ObjectNode create(WorkspaceTx tx, UUID actorId, JsonNode body) {
        Map<Column, Object> values = new LinkedHashMap<>();
        for (Column column : AllocationRepository.FIELDS) {
            values.put(column, column.fromJson(body.get(column.name())));
        }
        List<FieldError> errors = new ArrayList<>();
        LocalDate start = (LocalDate) values.get(field("start_date"));
        LocalDate end = (LocalDate) values.get(field("end_date"));
        if (end.isBefore(start)) {
            errors.add(new FieldError("/end_date", "date_order",
                    "end_date " + end + " is before start_date " + start + "; it must be on or after it"));
        }
        boolean hours = body.has("hours_per_day");
        boolean percentage = body.has("percentage");
        if (hours == percentage) {
            String pointer = hours ? "/percentage" : "/hours_per_day";
            errors.add(new FieldError(pointer, "one_of", hours
                    ? "give either hours_per_day or percentage, not both"
                    : "give exactly one of hours_per_day (0 < h <= 24) or percentage (0 < p <= 100)"));
        }
        UUID projectId = (UUID) values.get(field("project_id"));
        UUID issueId = (UUID) values.get(field("issue_id"));
        if (projectId == null && issueId == null) {
            errors.add(new FieldError("/project_id", "required", "project_id is required unless issue_id is given"));
        }
        if (projectId != null && !projects.exists(tx.handle(), tx.workspaceId(), projectId)) {
            errors.add(new FieldError("/project_id", "exists", "project_id does not name a project of this workspace"));
        }
        if (issueId != null) {
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
        if (!errors.isEmpty()) {
            throw ApiProblem.invalid(errors.get(0).message(), errors);
        }
        ObjectNode allocation = allocations.insert(tx.handle(), tx.workspaceId(), actorId, values);
        tx.events().publish(ProjectEvents.ALLOCATION_CREATED, allocation);
        return allocation;
    }

    private static Column field(String name) {
        return AllocationRepository.FIELDS.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }
}
