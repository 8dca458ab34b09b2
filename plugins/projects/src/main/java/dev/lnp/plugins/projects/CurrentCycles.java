package dev.lnp.plugins.projects;

import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** The cycles running today (UTC): not completed, today within their dates, of a live project. */
final class CurrentCycles {

    record Current(UUID id, UUID projectId, String name, String projectName, LocalDate start, LocalDate end,
            LocalDate today) {
    }

    /** At most {@code limit}, by project name and start date; cycles are few per workspace, so no index of their own. */
    List<Current> list(Handle handle, UUID workspaceId, int limit) {
        return handle.createQuery("""
                        SELECT c.id, c.project_id, c.name, p.name AS project_name, c.start_date, c.end_date,
                               (now() AT TIME ZONE 'UTC')::date AS today
                          FROM projects.cycles c
                          JOIN projects.projects p ON p.id = c.project_id AND p.workspace_id = c.workspace_id
                                                  AND p.deleted_at IS NULL
                         WHERE c.workspace_id = :workspace_id AND c.status <> 'completed'
                           AND c.start_date <= (now() AT TIME ZONE 'UTC')::date
                           AND c.end_date >= (now() AT TIME ZONE 'UTC')::date
                         ORDER BY p.name, c.start_date, c.id
                         LIMIT :limit
                        """)
                .bind("workspace_id", workspaceId).bind("limit", limit)
                .map((rs, ctx) -> new Current(rs.getObject("id", UUID.class), rs.getObject("project_id", UUID.class),
                        rs.getString("name"), rs.getString("project_name"), rs.getObject("start_date", LocalDate.class),
                        rs.getObject("end_date", LocalDate.class), rs.getObject("today", LocalDate.class)))
                .list();
    }
}
