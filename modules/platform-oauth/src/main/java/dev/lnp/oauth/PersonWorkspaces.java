package dev.lnp.oauth;

import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * The workspaces a person signed in with an address belongs to (one user per workspace), among which the consent
 * page lets them choose the one the client will act in.
 */
final class PersonWorkspaces {

    record Membership(UUID userId, UUID workspaceId, String workspaceName, String role) {
    }

    private final Jdbi jdbi;

    PersonWorkspaces(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    List<Membership> of(String email) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT u.id, u.workspace_id, w.name, u.role
                          FROM lnp_core.users u JOIN lnp_core.workspaces w ON w.id = u.workspace_id
                         WHERE lower(u.email) = lower(:email)
                         ORDER BY w.name, w.id""")
                .bind("email", email)
                .map((rs, ctx) -> new Membership(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class),
                        rs.getString(3), rs.getString(4)))
                .list());
    }
}
