package dev.lnp.web.console;

import dev.lnp.api.pages.Members;
import dev.lnp.api.pages.Members.Member;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * The member directory pages read ({@link Members}): the users of one workspace with their names, addresses and
 * roles. The web layer owns people, so it reads them as the platform (the tenant role may not read addresses), and
 * always for the signed-in person's workspace only.
 */
final class WorkspaceMembers {

    private final Jdbi jdbi;

    WorkspaceMembers(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /** The directory of {@code workspaceId} for one request: the list is read once, when first asked. */
    Members of(UUID workspaceId) {
        return new Members() {
            private List<Member> listed;

            @Override
            public List<Member> list() {
                if (listed == null) {
                    listed = read(workspaceId);
                }
                return listed;
            }

            @Override
            public Optional<Member> find(UUID userId) {
                if (userId == null) return Optional.empty();
                if (listed != null && listed.size() < MAX_LISTED) {
                    return listed.stream().filter(m -> m.id().equals(userId)).findFirst();
                }
                return one(workspaceId, userId);
            }
        };
    }

    private List<Member> read(UUID workspaceId) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT id, display_name, email, role FROM lnp_core.users
                         WHERE workspace_id = :ws
                         ORDER BY lower(coalesce(nullif(display_name, ''), email)), id
                         LIMIT :limit
                        """)
                .bind("ws", workspaceId).bind("limit", Members.MAX_LISTED)
                .map((rs, ctx) -> new Member(rs.getObject("id", UUID.class), rs.getString("display_name"),
                        rs.getString("email"), rs.getString("role")))
                .list());
    }

    private Optional<Member> one(UUID workspaceId, UUID userId) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT id, display_name, email, role FROM lnp_core.users
                         WHERE workspace_id = :ws AND id = :id
                        """)
                .bind("ws", workspaceId).bind("id", userId)
                .map((rs, ctx) -> new Member(rs.getObject("id", UUID.class), rs.getString("display_name"),
                        rs.getString("email"), rs.getString("role")))
                .findOne());
    }
}
