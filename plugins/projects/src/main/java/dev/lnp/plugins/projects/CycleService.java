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
        checkOverlap(tx, projectId, start, end, null);
        ObjectNode cycle = cycles.insert(tx.handle(), tx.workspaceId(), projectId,
                body.get("name").asText(), start, end, body.path("status").asText("upcoming"));
        tx.events().publish(ProjectEvents.CYCLE_CREATED, cycle);
        return cycle;
    }

    ObjectNode get(WorkspaceTx tx, UUID id) {
        return cycles.find(tx.handle(), tx.workspaceId(), id).orElseThrow(CycleService::notFound);
    }

    /**
     * Dates keep the create rules against the stored date the patch leaves alone, and may not overlap another
     * cycle (409). {@code completed} is refused: closing is {@link CycleClosing}'s, which also carries the open work
     * on; a completed cycle may be set back to upcoming or active.
     */
    ObjectNode update(WorkspaceTx tx, UUID id, JsonNode body) {
        ObjectNode stored = lockedCycle(tx, id);
        if ("completed".equals(body.path("status").asText(null)) && !"completed".equals(stored.path("status").asText())) {
            throw ApiProblem.invalidField("/status", "use_close", "a cycle is completed by closing it: POST "
                    + "/api/v1/cycles/" + id + "/close, which also moves its open tasks to the next cycle");
        }
        LocalDate start = date(body.has("start_date") ? body : stored, "start_date");
        LocalDate end = date(body.has("end_date") ? body : stored, "end_date");
        if (end.isBefore(start)) {
            throw ApiProblem.invalidField("/end_date", "date_order",
                    "end_date " + end + " is before start_date " + start + "; it must be on or after it");
        }
        UUID projectId = UUID.fromString(stored.get("project_id").asText());
        if (body.has("start_date") || body.has("end_date")) {
            checkOverlap(tx, projectId, start, end, id);
        }
        Map<String, Object> values = new java.util.LinkedHashMap<>();
        for (String name : java.util.List.of("name", "status")) {
            if (body.has(name)) {
                values.put(name, body.get(name).asText());
            }
        }
        for (String name : java.util.List.of("start_date", "end_date")) {
            if (body.has(name)) {
                values.put(name, date(body, name));
            }
        }
        ObjectNode cycle = cycles.update(tx.handle(), tx.workspaceId(), id, values);
        tx.events().publish(ProjectEvents.CYCLE_UPDATED, cycle);
        return cycle;
    }

    /** The cycle with its project's row locked, so date and state checks hold until the transaction ends. */
    ObjectNode lockedCycle(WorkspaceTx tx, UUID id) {
        ObjectNode cycle = cycles.find(tx.handle(), tx.workspaceId(), id).orElseThrow(CycleService::notFound);
        projects.findForUpdate(tx.handle(), tx.workspaceId(), UUID.fromString(cycle.get("project_id").asText()));
        return cycle;
    }

    private void checkOverlap(WorkspaceTx tx, UUID projectId, LocalDate start, LocalDate end, UUID except) {
        cycles.firstOverlapping(tx.handle(), tx.workspaceId(), projectId, start, end, except).ifPresent(other -> {
            String detail = "The cycle " + start + " to " + end + " overlaps cycle \"" + other.path("name").asText()
                    + "\" (" + other.path("id").asText() + ", " + other.path("start_date").asText() + " to "
                    + other.path("end_date").asText() + ") of this project; cycles of one project may not share a day.";
            throw new ApiProblem(409, "cycle_overlap", "Conflict", detail,
                    java.util.List.of(new dev.lnp.api.http.FieldError("/start_date", "overlap", detail)),
                    java.util.Map.of());
        });
    }

    private static LocalDate date(JsonNode node, String name) {
        return (LocalDate) Column.date(name).fromJson(node.get(name));
    }

    static ApiProblem notFound() {
        return ApiProblem.notFound("Cycle");
    }

    private void requireProject(WorkspaceTx tx, UUID projectId) {
        if (!projects.exists(tx.handle(), tx.workspaceId(), projectId)) {
            throw ApiProblem.notFound("Project");
        }
    }
}
