package dev.lnp.plugins.projects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.sql.Column;
import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.Listing;
import dev.lnp.api.http.PageRequest;
import java.time.LocalDate;
import java.util.Map;
import java.util.UUID;

/** Cycles always live under a project of the caller's workspace that is not soft-deleted. */
final class CycleService {

    private final ProjectRepository projects;
    private final CycleRepository cycles;

    CycleService(ProjectRepository projects, CycleRepository cycles) {
        this.projects = projects;
        this.cycles = cycles;
    }

    Listing<ObjectNode> list(WorkspaceTx tx, UUID projectId, PageRequest page) {
        requireProject(tx, projectId);
        long total = cycles.count(tx.handle(), tx.workspaceId(), projectId);
        return Listing.of(cycles.list(tx.handle(), tx.workspaceId(), projectId, page.limit(), page.offset()), page,
                total);
    }

    /**
     * Cycles of one project do not overlap (a day belongs to at most one cycle, as in Linear and Plane): an overlap
     * is 409 {@code cycle_overlap} naming the other cycle. The project row is locked first, so two concurrent
     * creates cannot both pass the check.
     */
    ObjectNode create(WorkspaceTx tx, UUID projectId, JsonNode body) {
        if (projects.findForUpdate(tx.handle(), tx.workspaceId(), projectId).isEmpty()) {
            throw ApiProblem.notFound("Project");
        }
        LocalDate start = (LocalDate) Column.date("start_date").fromJson(body.get("start_date"));
        LocalDate end = (LocalDate) Column.date("end_date").fromJson(body.get("end_date"));
        if (end.isBefore(start)) {
            throw ApiProblem.invalidField("/end_date", "date_order",
                    "end_date " + end + " is before start_date " + start + "; it must be on or after it");
        }
        cycles.firstOverlapping(tx.handle(), tx.workspaceId(), projectId, start, end).ifPresent(other -> {
            String detail = "The cycle " + start + " to " + end + " overlaps cycle \"" + other.path("name").asText()
                    + "\" (" + other.path("id").asText() + ", " + other.path("start_date").asText() + " to "
                    + other.path("end_date").asText() + ") of this project; cycles of one project may not share a day.";
            throw new ApiProblem(409, "cycle_overlap", "Conflict", detail,
                    java.util.List.of(new dev.lnp.api.http.FieldError("/start_date", "overlap", detail)),
                    java.util.Map.of());
        });
        ObjectNode cycle = cycles.insert(tx.handle(), tx.workspaceId(), projectId,
                body.get("name").asText(), start, end, body.path("status").asText("upcoming"));
        tx.events().publish(ProjectEvents.CYCLE_CREATED, cycle);
        return cycle;
    }

    private void requireProject(WorkspaceTx tx, UUID projectId) {
        if (!projects.exists(tx.handle(), tx.workspaceId(), projectId)) {
            throw ApiProblem.notFound("Project");
        }
    }
}
