package dev.lnp.api.sql;

import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * Soft delete for a workspace table with {@code id}, {@code workspace_id}, {@code deleted_at} and
 * {@code updated_at} columns: the row stays, marked, and every read of the plugin filters on {@link #LIVE}.
 * Answer a soft delete with {@link dev.lnp.api.Deleted#soft}.
 */
public final class SoftDelete {

    /** The condition that keeps only rows that are not soft-deleted. */
    public static final String LIVE = "deleted_at IS NULL";

    private SoftDelete() {
    }

    /**
     * Marks one live row of the workspace deleted, on the caller's handle (so in the request's transaction).
     *
     * @param table a schema-qualified table name, e.g. {@code projects.projects}
     * @return when it was marked; empty when there is no such live row in the workspace
     */
    public static Optional<OffsetDateTime> mark(Handle handle, String table, UUID workspaceId, UUID id) {
        if (!table.matches("[a-z_][a-z0-9_]*\\.[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("not a schema-qualified table name: " + table);
        }
        return handle.createQuery("UPDATE " + table + " SET deleted_at = now(), updated_at = now()"
                        + " WHERE workspace_id = :workspace_id AND id = :id AND " + LIVE + " RETURNING deleted_at")
                .bind("workspace_id", workspaceId)
                .bind("id", id)
                .mapTo(OffsetDateTime.class)
                .findOne();
    }
}
