package dev.lnp.core.auth;

import dev.lnp.api.internal.keys.KeyIssuer;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * The core's {@link KeyIssuer}: an ordinary External Connection ({@link Connections#create}) whose restrictions
 * (MCP only, a tool-call budget) are set before the key leaves this class.
 */
public final class PlatformKeyIssuer implements KeyIssuer {

    private final Jdbi jdbi;
    private final Connections connections;

    public PlatformKeyIssuer(Jdbi jdbi, Connections connections) {
        this.jdbi = jdbi;
        this.connections = connections;
    }

    @Override
    public IssuedKey issue(KeyGrant grant) {
        if (grant.workspaceId() == null) {
            throw new IllegalArgumentException("workspaceId is required");
        }
        if (grant.expiresAt() == null) {
            throw new IllegalArgumentException("expiresAt is required: keys issued by plugins always expire");
        }
        if (grant.toolCallBudget() != null && grant.toolCallBudget() < 0) {
            throw new IllegalArgumentException("toolCallBudget must be 0 or more");
        }
        Connections.Issued issued = connections.create(new Connections.NewConnection(grant.workspaceId(),
                grant.name(), List.of(), grant.preset(), grant.expiresAt(), null));
        if (grant.mcpOnly() || grant.toolCallBudget() != null) {
            jdbi.useHandle(h -> h.createUpdate("""
                            UPDATE lnp_core.connections SET mcp_only = :mcpOnly, tool_call_budget = :budget
                             WHERE id = :id
                            """)
                    .bind("id", issued.connectionId()).bind("mcpOnly", grant.mcpOnly())
                    .bind("budget", grant.toolCallBudget()).execute());
        }
        return new IssuedKey(issued.connectionId(), issued.key(), grant.expiresAt(), grant.toolCallBudget());
    }

    @Override
    public void revoke(UUID connectionId) {
        boolean live = jdbi.withHandle(h -> h.createQuery(
                        "SELECT revoked_at IS NULL FROM lnp_core.connections WHERE id = :id")
                .bind("id", connectionId).mapTo(Boolean.class).findOne().orElse(false));
        if (live) {
            try {
                connections.revoke(connectionId);
            } catch (IllegalArgumentException alreadyRevoked) {
                // revoked by someone else in between: the wanted state
            }
        }
    }

    @Override
    public Optional<KeyState> state(UUID connectionId) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT id, workspace_id, expires_at, revoked_at, tool_call_budget, tool_calls_used
                          FROM lnp_core.connections WHERE id = :id
                        """)
                .bind("id", connectionId)
                .map((rs, ctx) -> new KeyState(rs.getObject("id", UUID.class), rs.getObject("workspace_id", UUID.class),
                        ts(rs.getTimestamp("expires_at")), ts(rs.getTimestamp("revoked_at")),
                        (Integer) rs.getObject("tool_call_budget"), rs.getInt("tool_calls_used")))
                .findOne());
    }

    private static java.time.Instant ts(java.sql.Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
