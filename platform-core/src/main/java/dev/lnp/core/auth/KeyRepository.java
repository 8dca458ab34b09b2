package dev.lnp.core.auth;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/** SQL for keys and connections. */
public final class KeyRepository {

    private final Jdbi jdbi;

    public KeyRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    public Optional<KeyRecord> findByHash(byte[] hash) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT k.id AS key_id, k.legacy, k.valid_until, k.revoked_at AS key_revoked_at,
                               c.id AS connection_id, c.workspace_id, c.identity_id, c.scopes, c.preset,
                               c.expires_at, c.revoked_at AS connection_revoked_at, c.delegation_enabled,
                               c.delegated_user_id, u.role AS delegated_role, c.tool_allow, c.tool_deny,
                               c.read_only_tools, c.rest_per_minute, c.mcp_per_minute,
                               w.crm_quota_monthly, w.disabled_modules
                          FROM lnp_core.api_keys k
                          JOIN lnp_core.connections c ON c.id = k.connection_id
                          JOIN lnp_core.workspaces w ON w.id = c.workspace_id
                          LEFT JOIN lnp_core.users u ON u.id = c.delegated_user_id
                         WHERE k.key_hash = :hash
                        """)
                .bind("hash", hash)
                .map((rs, ctx) -> new KeyRecord(
                        rs.getObject("key_id", UUID.class),
                        rs.getBoolean("legacy"),
                        instant(rs.getTimestamp("valid_until")),
                        instant(rs.getTimestamp("key_revoked_at")),
                        rs.getObject("connection_id", UUID.class),
                        rs.getObject("workspace_id", UUID.class),
                        rs.getObject("identity_id", UUID.class),
                        strings(rs.getArray("scopes")),
                        rs.getString("preset"),
                        instant(rs.getTimestamp("expires_at")),
                        instant(rs.getTimestamp("connection_revoked_at")),
                        rs.getBoolean("delegation_enabled"),
                        rs.getObject("delegated_user_id", UUID.class),
                        rs.getString("delegated_role"),
                        rs.getArray("tool_allow") == null ? null : strings(rs.getArray("tool_allow")),
                        strings(rs.getArray("tool_deny")),
                        rs.getBoolean("read_only_tools"),
                        (Integer) rs.getObject("rest_per_minute"),
                        (Integer) rs.getObject("mcp_per_minute"),
                        (Long) rs.getObject("crm_quota_monthly"),
                        strings(rs.getArray("disabled_modules"))))
                .findOne());
    }

    private static Instant instant(java.sql.Timestamp ts) {
        return ts == null ? null : ts.toInstant();
    }

    private static List<String> strings(java.sql.Array array) throws java.sql.SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }
}
