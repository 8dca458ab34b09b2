package dev.lnp.plugins.projects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.plugins.projects.api.IssueDirectory;
import java.time.LocalDate;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Closing a cycle: it becomes {@code completed} and its open tasks and tickets (any status but done and cancelled,
 * solved and closed) move on, in one transaction, through the issues plugin's {@link IssueDirectory} (this plugin
 * never writes the issues tables). Each moved item publishes the update event a PATCH of it would.
 */
final class CycleClosing {

    private final CycleService cycles;
    private final CycleRepository repository;
    /** Empty when the issues plugin is not loaded: then no cycle holds items and nothing moves. */
    private final Supplier<Optional<IssueDirectory>> issues;

    CycleClosing(CycleService cycles, CycleRepository repository, Supplier<Optional<IssueDirectory>> issues) {
        this.cycles = cycles;
        this.repository = repository;
        this.issues = issues;
    }

    /**
     * The open items go to {@code target_cycle_id} when the body names one (null: out of any cycle), else to the
     * project's next cycle. A cycle already completed is 409 {@code cycle_closed}; open items with no next cycle
     * and no target are 409 {@code no_next_cycle}, and nothing changes.
     */
    ObjectNode close(WorkspaceTx tx, UUID id, JsonNode body) {
        ObjectNode cycle = cycles.lockedCycle(tx, id);
        if ("completed".equals(cycle.get("status").asText())) {
            throw ApiProblem.conflict("cycle_closed", "The cycle \"" + cycle.get("name").asText() + "\" is already "
                    + "completed; closing it again would move nothing. PATCH its status to reopen it first.");
        }
        UUID projectId = UUID.fromString(cycle.get("project_id").asText());
        UUID target = body.has("target_cycle_id") ? explicitTarget(tx, id, projectId, body.get("target_cycle_id"))
                : nextCycle(tx, cycle, projectId);
        Optional<IssueDirectory> directory = issues.get();
        Map<String, Integer> moved = directory.map(d -> d.moveOpen(tx, id, target))
                .orElse(Map.of("task", 0, "ticket", 0));
        ObjectNode closed = repository.update(tx.handle(), tx.workspaceId(), id, Map.of("status", "completed"));
        tx.events().publish(ProjectEvents.CYCLE_UPDATED, closed);
        ObjectNode result = Json.object();
        result.set("cycle", closed);
        result.put("target_cycle_id", target == null ? null : target.toString());
        ObjectNode counts = result.putObject("moved");
        counts.put("task", moved.getOrDefault("task", 0));
        counts.put("ticket", moved.getOrDefault("ticket", 0));
        return result;
    }

    /** Another cycle of the same project that is not completed; an id of another workspace is unknown here. */
    private UUID explicitTarget(WorkspaceTx tx, UUID id, UUID projectId, JsonNode value) {
        if (value.isNull()) {
            return null;
        }
        UUID target = UUID.fromString(value.asText());
        Optional<ObjectNode> found = repository.find(tx.handle(), tx.workspaceId(), target)
                .filter(c -> c.get("project_id").asText().equals(projectId.toString()));
        if (found.isEmpty()) {
            throw ApiProblem.invalidField("/target_cycle_id", "exists",
                    "target_cycle_id does not name a cycle of this cycle's project");
        }
        if (target.equals(id)) {
            throw ApiProblem.invalidField("/target_cycle_id", "self", "target_cycle_id is the cycle being closed");
        }
        if ("completed".equals(found.get().get("status").asText())) {
            throw ApiProblem.invalidField("/target_cycle_id", "completed",
                    "target_cycle_id names a completed cycle; open work cannot move into it");
        }
        return target;
    }

    private UUID nextCycle(WorkspaceTx tx, ObjectNode cycle, UUID projectId) {
        LocalDate end = LocalDate.parse(cycle.get("end_date").asText());
        Optional<ObjectNode> next = repository.next(tx.handle(), tx.workspaceId(), projectId, end);
        if (next.isPresent()) {
            return UUID.fromString(next.get().get("id").asText());
        }
        UUID id = UUID.fromString(cycle.get("id").asText());
        int open = issues.get().map(d -> d.countOpen(tx.handle(), tx.workspaceId(), id)).orElse(0);
        if (open > 0) {
            throw ApiProblem.conflict("no_next_cycle", "The cycle has " + open + " open item(s) and its project has no"
                    + " later cycle that is not completed to move them to. Create the next cycle first, or send"
                    + " {\"target_cycle_id\": null} to move them out of any cycle.");
        }
        return null;
    }
}
