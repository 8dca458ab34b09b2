package dev.lnp.plugins.projects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.sql.Column;
import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.WorkspaceTx;
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

    ObjectNode create(WorkspaceTx tx, UUID projectId, JsonNode body) {
        requireProject(tx, projectId);
        LocalDate start = (LocalDate) Column.date("start_date").fromJson(body.get("start_date"));
        LocalDate end = (LocalDate) Column.date("end_date").fromJson(body.get("end_date"));
        if (end.isBefore(start)) {
            throw ApiProblem.invalidField("/end_date", "date_order",
                    "end_date " + end + " is before start_date " + start + "; it must be on or after it");
        }
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
