package dev.lnp.web.console;

import dev.lnp.api.internal.console.SignInInvitations.Membership;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/** A person's memberships: the workspace users that share their e-mail address. */
public final class People {

    private final Jdbi jdbi;

    public People(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    public List<Membership> memberships(String email) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT u.id, u.workspace_id, w.name, u.role, u.email
                          FROM lnp_core.users u JOIN lnp_core.workspaces w ON w.id = u.workspace_id
                         WHERE lower(u.email) = lower(:email)
                         ORDER BY w.name, w.id
                        """)
                .bind("email", email)
                .map((rs, ctx) -> new Membership(rs.getObject("id", UUID.class), rs.getObject("workspace_id", UUID.class),
                        rs.getString("name"), rs.getString("role"), rs.getString("email")))
                .list());
    }

    public Optional<Membership> membership(String email, UUID userId) {
        return memberships(email).stream().filter(m -> m.userId().equals(userId)).findFirst();
    }
}
