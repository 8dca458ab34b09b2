package dev.lnp.plugins.issues;

import dev.lnp.plugins.projects.api.IssueDirectory.BurnUpDay;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** A cycle's tasks as the Projects home counts them; each read is one range of {@code tasks_cycle_progress} (V4). */
final class CycleFigures {

    Map<UUID, Map<String, Long>> openByStatus(Handle handle, UUID workspaceId, List<UUID> cycleIds) {
        Map<UUID, Map<String, Long>> counts = new HashMap<>();
        if (cycleIds.isEmpty()) return counts;
        handle.createQuery("""
                        SELECT cycle_id, status, count(*) AS n FROM issues.tasks
                         WHERE workspace_id = :workspace_id AND cycle_id = ANY(:cycles) AND deleted_at IS NULL
                           AND status NOT IN ('done', 'cancelled')
                         GROUP BY cycle_id, status
                        """)
                .bind("workspace_id", workspaceId).bindArray("cycles", UUID.class, cycleIds)
                .map((rs, ctx) -> {
                    counts.computeIfAbsent(rs.getObject("cycle_id", UUID.class), c -> new HashMap<>())
                            .put(rs.getString("status"), rs.getLong("n"));
                    return null;
                })
                .list();
        return counts;
    }

    /**
     * The cycle's live tasks, not cancelled, counted once by the day they were created and once by the day they
     * were done (a day before {@code from} counts as {@code from}), then summed day by day: the cycle's tasks are
     * read once, however long the cycle.
     */
    List<BurnUpDay> burnUp(Handle handle, UUID workspaceId, UUID cycleId, LocalDate from, LocalDate to) {
        return handle.createQuery("""
                        WITH tasks AS (
                            SELECT created_at, done_at FROM issues.tasks
                             WHERE workspace_id = :workspace_id AND cycle_id = :cycle AND deleted_at IS NULL
                               AND status <> 'cancelled'),
                        created AS (
                            SELECT greatest((created_at AT TIME ZONE 'UTC')::date, :from) AS day, count(*) AS n
                              FROM tasks GROUP BY 1),
                        done AS (
                            SELECT greatest((done_at AT TIME ZONE 'UTC')::date, :from) AS day, count(*) AS n
                              FROM tasks WHERE done_at IS NOT NULL GROUP BY 1),
                        days AS (SELECT d::date AS day FROM generate_series(:from, :to, interval '1 day') AS d)
                        SELECT d.day, sum(coalesce(c.n, 0)) OVER (ORDER BY d.day) AS scope,
                               sum(coalesce(x.n, 0)) OVER (ORDER BY d.day) AS done
                          FROM days d LEFT JOIN created c ON c.day = d.day LEFT JOIN done x ON x.day = d.day
                         ORDER BY d.day
                        """)
                .bind("workspace_id", workspaceId).bind("cycle", cycleId).bind("from", from).bind("to", to)
                .map((rs, ctx) -> new BurnUpDay(rs.getObject("day", LocalDate.class), rs.getLong("scope"),
                        rs.getLong("done")))
                .list();
    }
}
