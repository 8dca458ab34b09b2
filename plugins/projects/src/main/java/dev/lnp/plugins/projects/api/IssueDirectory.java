package dev.lnp.plugins.projects.api;

import dev.lnp.api.workspace.WorkspaceTx;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * The part of the issues plugin that planning needs, declared here because issues depends on projects and not
 * the other way round. The issues plugin provides an implementation; without it, allocations cannot name an
 * issue.
 */
public interface IssueDirectory {

    /** A live task or ticket of the workspace. */
    Optional<IssueSummary> find(Handle handle, UUID workspaceId, UUID issueId);

    /**
     * How many live items of the cycle are still open: a task not done or cancelled, a ticket not solved or
     * closed.
     */
    int countOpen(Handle handle, UUID workspaceId, UUID cycleId);

    /**
     * Moves the cycle's open items to another cycle, or out of any cycle with null, in the caller's transaction;
     * each moved item publishes the update event a PATCH of it would.
     *
     * @return how many moved, by kind ({@code task}, {@code ticket})
     */
    Map<String, Integer> moveOpen(WorkspaceTx tx, UUID fromCycleId, UUID toCycleId);

    /**
     * The open tasks (not done or cancelled) of each cycle by status, one grouped read; a cycle or status without
     * tasks is absent.
     */
    Map<UUID, Map<String, Long>> openTasksByStatus(Handle handle, UUID workspaceId, List<UUID> cycleIds);

    /**
     * A cycle's burn-up from {@code from} to {@code to} (UTC days): for each day, its tasks that existed by the
     * day's end (the scope; cancelled ones left out) and those of them done by then.
     */
    List<BurnUpDay> burnUp(Handle handle, UUID workspaceId, UUID cycleId, LocalDate from, LocalDate to);

    record BurnUpDay(LocalDate day, long scope, long done) {
    }

    /** @param projectId the issue's project, or null when it has none */
    record IssueSummary(UUID id, String kind, UUID projectId) {
    }
}
