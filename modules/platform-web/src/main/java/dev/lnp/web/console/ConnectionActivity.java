package dev.lnp.web.console;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/** What the console shows of one connection beyond its keys: its settings and its recent activity (audit). */
final class ConnectionActivity {

    record Settings(boolean delegation, String delegatedEmail, List<String> toolAllow, List<String> toolDeny,
            boolean readOnlyTools) {
    }

    private final Jdbi jdbi;

    ConnectionActivity(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /** The connection's settings, only when it belongs to {@code workspaceId} (ids of other workspaces are not found). */
    Optional<Settings> settings(UUID workspaceId, UUID connectionId) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT c.delegation_enabled, u.email, c.tool_allow, c.tool_deny, c.read_only_tools
                          FROM lnp_core.connections c LEFT JOIN lnp_core.users u ON u.id = c.delegated_user_id
                         WHERE c.id = :id AND c.workspace_id = :ws
                        """)
                .bind("id", connectionId).bind("ws", workspaceId)
                .map((rs, ctx) -> new Settings(rs.getBoolean("delegation_enabled"), rs.getString("email"),
                        rs.getArray("tool_allow") == null ? null : List.of((String[]) rs.getArray("tool_allow").getArray()),
                        List.of((String[]) rs.getArray("tool_deny").getArray()), rs.getBoolean("read_only_tools")))
                .findOne());
    }

    List<Views.RequestRow> requests(UUID workspaceId, UUID connectionId, int limit) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT at, surface, method, route, status, latency_ms FROM lnp_core.audit_log
                         WHERE workspace_id = :ws AND connection_id = :id ORDER BY at DESC LIMIT :limit
                        """)
                .bind("ws", workspaceId).bind("id", connectionId).bind("limit", limit)
                .map((rs, ctx) -> new Views.RequestRow(rs.getTimestamp("at").toInstant(), rs.getString("surface"),
                        rs.getString("method"), rs.getString("route"), rs.getInt("status"),
                        rs.getBigDecimal("latency_ms").toPlainString()))
                .list());
    }

    List<Views.ToolCallRow> toolCalls(UUID workspaceId, UUID connectionId, int limit) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT at, tool, outcome, error_code, duration_ms FROM lnp_core.tool_calls
                         WHERE workspace_id = :ws AND connection_id = :id ORDER BY at DESC, id DESC LIMIT :limit
                        """)
                .bind("ws", workspaceId).bind("id", connectionId).bind("limit", limit)
                .map((rs, ctx) -> new Views.ToolCallRow(rs.getTimestamp("at").toInstant(), rs.getString("tool"),
                        rs.getString("outcome"), rs.getString("error_code"),
                        rs.getBigDecimal("duration_ms").toPlainString()))
                .list());
    }

    /** The workspace's users, for the delegation choice. */
    record WorkspaceUser(UUID id, String email, String role) {
    }

    List<WorkspaceUser> users(UUID workspaceId) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT u.id, u.email, u.role FROM lnp_core.users u
                         WHERE u.workspace_id = :ws ORDER BY u.email
                        """)
                .bind("ws", workspaceId)
                .map((rs, ctx) -> new WorkspaceUser(rs.getObject("id", UUID.class), rs.getString("email"),
                        rs.getString("role")))
                .list());
    }
}
