package dev.lnp.core.tenancy;

import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/** Workspaces and their human users. */
public final class Workspaces {

    public record Workspace(UUID id, String name, String ownerEmail) {
    }

    private final Jdbi jdbi;

    public Workspaces(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /** Creates the workspace and its owner user in one transaction. */
    public Workspace create(String name, String ownerEmail) {
        if (name == null || name.isBlank() || name.length() > 200) {
            throw new IllegalArgumentException("--name must be 1 to 200 characters");
        }
        if (ownerEmail == null || !ownerEmail.matches("[^@\\s]+@[^@\\s]+\\.[^@\\s]+")) {
            throw new IllegalArgumentException("--owner-email must be an email address");
        }
        return jdbi.inTransaction(h -> {
            UUID id = h.createQuery("""
                            INSERT INTO lnp_core.workspaces (name, owner_email) VALUES (:name, :email) RETURNING id
                            """)
                    .bind("name", name.strip()).bind("email", ownerEmail.strip())
                    .mapTo(UUID.class).one();
            h.createUpdate("INSERT INTO lnp_core.users (workspace_id, email, role) VALUES (:ws, :email, 'owner')")
                    .bind("ws", id).bind("email", ownerEmail.strip()).execute();
            return new Workspace(id, name.strip(), ownerEmail.strip());
        });
    }

    public UUID addUser(UUID workspaceId, String email, String role) {
        return jdbi.withHandle(h -> h.createQuery("""
                        INSERT INTO lnp_core.users (workspace_id, email, role) VALUES (:ws, :email, :role) RETURNING id
                        """)
                .bind("ws", workspaceId).bind("email", email).bind("role", role)
                .mapTo(UUID.class).one());
    }

    /**
     * Gives the workspace its own monthly limit for a declared quota ({@code null}: back to the deployment's).
     * The name is not checked against the declared quotas here: a limit for a quota no loaded plugin declares
     * waits, unused, for the plugin that does.
     */
    public void setQuota(UUID workspaceId, String quota, Long monthly) {
        if (monthly != null && monthly < 0) {
            throw new IllegalArgumentException("a monthly quota is 0 or more, not " + monthly);
        }
        jdbi.useHandle(h -> {
            if (monthly == null) {
                h.createUpdate("DELETE FROM lnp_core.workspace_quotas WHERE workspace_id = :ws AND quota = :quota")
                        .bind("ws", workspaceId).bind("quota", quota).execute();
            } else {
                h.createUpdate("""
                                INSERT INTO lnp_core.workspace_quotas (workspace_id, quota, monthly)
                                VALUES (:ws, :quota, :monthly)
                                ON CONFLICT (workspace_id, quota) DO UPDATE SET monthly = EXCLUDED.monthly
                                """)
                        .bind("ws", workspaceId).bind("quota", quota).bind("monthly", monthly).execute();
            }
        });
    }

    public Optional<Workspace> find(UUID id) {
        return jdbi.withHandle(h -> h.createQuery(
                        "SELECT id, name, owner_email FROM lnp_core.workspaces WHERE id = :id")
                .bind("id", id)
                .map((rs, ctx) -> new Workspace(rs.getObject("id", UUID.class), rs.getString("name"),
                        rs.getString("owner_email")))
                .findOne());
    }
}
