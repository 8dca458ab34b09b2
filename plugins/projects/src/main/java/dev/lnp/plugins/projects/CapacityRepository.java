package dev.lnp.plugins.projects;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** SQL of projects.capacities: a person's weekly hours where they differ from the default. */
final class CapacityRepository {

    Map<UUID, BigDecimal> weeklyHours(Handle handle, UUID workspaceId, List<UUID> users) {
        Map<UUID, BigDecimal> hours = new HashMap<>();
        handle.createQuery("SELECT user_id, weekly_hours FROM projects.capacities WHERE workspace_id = :workspace_id"
                        + " AND user_id = ANY(:users)")
                .bind("workspace_id", workspaceId)
                .bindArray("users", UUID.class, users)
                .map((rs, ctx) -> hours.put(rs.getObject("user_id", UUID.class), rs.getBigDecimal("weekly_hours")))
                .list();
        return hours;
    }

    void set(Handle handle, UUID workspaceId, UUID userId, BigDecimal weeklyHours) {
        handle.createUpdate("""
                        INSERT INTO projects.capacities (workspace_id, user_id, weekly_hours)
                        VALUES (:workspace_id, :user, :hours)
                        ON CONFLICT (workspace_id, user_id) DO UPDATE SET weekly_hours = EXCLUDED.weekly_hours,
                                                                           updated_at = now()
                        """)
                .bind("workspace_id", workspaceId)
                .bind("user", userId)
                .bind("hours", weeklyHours)
                .execute();
    }

    void clear(Handle handle, UUID workspaceId, UUID userId) {
        handle.createUpdate("DELETE FROM projects.capacities WHERE workspace_id = :workspace_id AND user_id = :user")
                .bind("workspace_id", workspaceId)
                .bind("user", userId)
                .execute();
    }
}
