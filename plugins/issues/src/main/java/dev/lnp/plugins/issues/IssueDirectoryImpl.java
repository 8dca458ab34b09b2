package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.plugins.projects.api.IssueDirectory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** Lets planning name a task or ticket, and a closing cycle hand its open work on, without reading these tables. */
final class IssueDirectoryImpl implements IssueDirectory {

    private final IssueRepository issues;
    private final CycleFigures cycles = new CycleFigures();

    IssueDirectoryImpl(IssueRepository issues) {
        this.issues = issues;
    }

    @Override
    public Optional<IssueSummary> find(Handle handle, UUID workspaceId, UUID issueId) {
        return issues.ref(handle, workspaceId, issueId).map(r -> new IssueSummary(r.id(), r.kind().key, r.projectId()));
    }

    @Override
    public int countOpen(Handle handle, UUID workspaceId, UUID cycleId) {
        int open = 0;
        for (IssueKind kind : IssueKind.values()) {
            open += issues.countOpen(handle, workspaceId, kind, cycleId);
        }
        return open;
    }

    /** One UPDATE per kind; then one read of the moved items, each published as a PATCH of it would be. */
    @Override
    public Map<String, Integer> moveOpen(WorkspaceTx tx, UUID fromCycleId, UUID toCycleId) {
        Map<String, Integer> moved = new LinkedHashMap<>();
        for (IssueKind kind : IssueKind.values()) {
            List<UUID> ids = issues.moveOpen(tx.handle(), tx.workspaceId(), kind, fromCycleId, toCycleId);
            if (!ids.isEmpty()) {
                for (ObjectNode issue : issues.findAll(tx.handle(), tx.workspaceId(), kind, ids)) {
                    tx.events().publish(IssueEvents.updated(kind), issue);
                }
            }
            moved.put(kind.key, ids.size());
        }
        return moved;
    }

    @Override
    public Map<UUID, Map<String, Long>> openTasksByStatus(Handle handle, UUID workspaceId, List<UUID> cycleIds) {
        return cycles.openByStatus(handle, workspaceId, cycleIds);
    }

    @Override
    public List<BurnUpDay> burnUp(Handle handle, UUID workspaceId, UUID cycleId, java.time.LocalDate from,
            java.time.LocalDate to) {
        return cycles.burnUp(handle, workspaceId, cycleId, from, to);
    }
}
