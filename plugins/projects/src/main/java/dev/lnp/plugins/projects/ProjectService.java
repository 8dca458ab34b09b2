package dev.lnp.plugins.projects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.sql.Column;
import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Deleted;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.crm.DealDirectory;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.Listing;
import dev.lnp.api.http.PageRequest;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.Map;
import java.util.UUID;

/** Project rules shared by the REST routes and the MCP tools; bodies arrive already schema-validated. */
final class ProjectService {

    private final ProjectRepository projects;
    private final Supplier<Optional<DealDirectory>> deals;

    /** @param deals the CRM's deal lookup, empty when the CRM plugin is not deployed */
    ProjectService(ProjectRepository projects, Supplier<Optional<DealDirectory>> deals) {
        this.projects = projects;
        this.deals = deals;
    }

    Listing<ObjectNode> list(WorkspaceTx tx, PageRequest page) {
        long total = projects.count(tx.handle(), tx.workspaceId());
        return Listing.of(projects.list(tx.handle(), tx.workspaceId(), page.limit(), page.offset()), page, total);
    }

    /** At most {@code limit} live projects whose name contains {@code text}, by name (the search box's). */
    List<ObjectNode> named(WorkspaceTx tx, String text, int limit) {
        return projects.named(tx.handle(), tx.workspaceId(), text, limit);
    }

    ObjectNode get(WorkspaceTx tx, UUID id) {
        return projects.find(tx.handle(), tx.workspaceId(), id).orElseThrow(() -> ApiProblem.notFound("Project"));
    }

    ObjectNode create(WorkspaceTx tx, JsonNode body) {
        Map<Column, Object> values = values(body);
        checkDates((LocalDate) values.get(column("start_date")), (LocalDate) values.get(column("end_date")));
        checkReferences(tx, values);
        ObjectNode project = projects.insert(tx.handle(), tx.workspaceId(), values);
        tx.events().publish(ProjectEvents.PROJECT_CREATED, project);
        return project;
    }

    /** Dates are checked against the stored value of whichever date the patch leaves alone. */
    ObjectNode update(WorkspaceTx tx, UUID id, JsonNode body) {
        ObjectNode stored = projects.findForUpdate(tx.handle(), tx.workspaceId(), id)
                .orElseThrow(() -> ApiProblem.notFound("Project"));
        Map<Column, Object> values = values(body);
        LocalDate start = (LocalDate) column("start_date").fromJson((body.has("start_date") ? body : stored).get("start_date"));
        LocalDate end = (LocalDate) column("end_date").fromJson((body.has("end_date") ? body : stored).get("end_date"));
        checkDates(start, end);
        checkReferences(tx, values);
        ObjectNode project = projects.update(tx.handle(), tx.workspaceId(), id, values);
        tx.events().publish(ProjectEvents.PROJECT_UPDATED, project);
        return project;
    }

    /** A soft delete; the event's payload is the deletion result. */
    Deleted delete(WorkspaceTx tx, UUID id) {
        Deleted deleted = Deleted.soft(id, projects.softDelete(tx.handle(), tx.workspaceId(), id)
                .orElseThrow(() -> ApiProblem.notFound("Project")));
        tx.events().publish(ProjectEvents.PROJECT_DELETED, deleted.toJson());
        return deleted;
    }

    private static Map<Column, Object> values(JsonNode body) {
        Map<Column, Object> values = new LinkedHashMap<>();
        for (Column column : ProjectRepository.FIELDS) {
            if (body.has(column.name())) {
                values.put(column, column.fromJson(body.get(column.name())));
            }
        }
        values.computeIfPresent(column("status"), (c, status) -> ProjectStatus.normalize((String) status));
        return values;
    }

    /**
     * A project's lead is a person of its workspace, and its deal a CRM deal of its workspace: an id of another
     * workspace is answered exactly like one that does not exist. Without the CRM plugin no deal can be named.
     * Only ids the request sets are checked; null clears either.
     */
    private void checkReferences(WorkspaceTx tx, Map<Column, Object> values) {
        List<FieldError> errors = new ArrayList<>();
        UUID lead = (UUID) values.get(column("lead_user_id"));
        if (lead != null && !tx.isUser(lead)) {
            errors.add(new FieldError("/lead_user_id", "exists",
                    "lead_user_id does not name a person (owner, admin or member) of this workspace"));
        }
        UUID deal = (UUID) values.get(column("deal_id"));
        if (deal != null) {
            Optional<DealDirectory> directory = deals.get();
            if (directory.isEmpty()) {
                errors.add(new FieldError("/deal_id", "exists",
                        "deal_id cannot name a deal: the CRM module is not installed on this deployment"));
            } else if (!directory.get().exists(tx, deal)) {
                errors.add(new FieldError("/deal_id", "exists", "deal_id does not name a deal of this workspace"));
            }
        }
        if (!errors.isEmpty()) {
            throw ApiProblem.invalid(errors.get(0).message(), errors);
        }
    }

    private static void checkDates(LocalDate start, LocalDate end) {
        if (start != null && end != null && end.isBefore(start)) {
            throw ApiProblem.invalidField("/end_date", "date_order",
                    "end_date " + end + " is before start_date " + start + "; it must be on or after it");
        }
    }

    private static Column column(String name) {
        return ProjectRepository.FIELDS.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }
}
