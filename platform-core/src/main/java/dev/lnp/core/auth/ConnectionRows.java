package dev.lnp.core.auth;

import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** The statements every change of a connection shares: its key rows, and the checks it starts with. */
final class ConnectionRows {

    private ConnectionRows() {
    }

    static void insertKey(Handle h, UUID connectionId, String key, boolean legacy) {
        h.createUpdate("""
                        INSERT INTO lnp_core.api_keys (connection_id, key_hash, display_prefix, legacy)
                        VALUES (:id, :hash, :prefix, :legacy)
                        """)
                .bind("id", connectionId).bind("hash", ApiKeys.hash(key))
                .bind("prefix", ApiKeys.displayPrefix(key)).bind("legacy", legacy)
                .execute();
    }

    static void requireWorkspace(Handle h, UUID workspaceId) {
        boolean exists = h.createQuery("SELECT count(*) > 0 FROM lnp_core.workspaces WHERE id = :id")
                .bind("id", workspaceId).mapTo(Boolean.class).one();
        if (!exists) {
            throw new IllegalArgumentException("no workspace " + workspaceId);
        }
    }

    static UUID activeConnection(Handle h, UUID connectionId) {
        Optional<Object[]> row = h.createQuery("SELECT identity_id, revoked_at FROM lnp_core.connections WHERE id = :id FOR UPDATE")
                .bind("id", connectionId)
                .map((rs, ctx) -> new Object[] {rs.getObject("identity_id", UUID.class), rs.getTimestamp("revoked_at")})
                .findOne();
        if (row.isEmpty()) {
            throw new IllegalArgumentException("no connection " + connectionId);
        }
        if (row.get()[1] != null) {
            throw new IllegalArgumentException("connection " + connectionId + " is revoked");
        }
        return (UUID) row.get()[0];
    }
}
