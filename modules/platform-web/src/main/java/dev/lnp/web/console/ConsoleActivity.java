package dev.lnp.web.console;

import dev.lnp.api.internal.console.ActivityLog;
import dev.lnp.api.internal.console.ConsoleSession;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/** Who changed what, when, in a workspace through the console or the management routes. */
public final class ConsoleActivity implements ActivityLog {

    public record Entry(Instant at, String actorEmail, String action, String target, String detail) {
    }

    private final Jdbi jdbi;

    public ConsoleActivity(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public void record(ConsoleSession actor, String action, String target, String detail) {
        jdbi.useHandle(h -> record(h, actor, action, target, detail));
    }

    /** Records in the caller's transaction, so the entry exists exactly when the change committed. */
    public void record(Handle h, ConsoleSession actor, String action, String target, String detail) {
        h.createUpdate("""
                        INSERT INTO lnp_core.console_activity (workspace_id, actor_user_id, actor_email, action, target, detail)
                        VALUES (:ws, CAST(:user AS uuid), :email, :action, :target, :detail)
                        """)
                .bind("ws", actor.workspaceId()).bind("user", actor.userId()).bind("email", actor.email())
                .bind("action", action).bind("target", target).bind("detail", detail)
                .execute();
    }

    public List<Entry> recent(UUID workspaceId, int limit) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT at, actor_email, action, target, detail FROM lnp_core.console_activity
                         WHERE workspace_id = :ws ORDER BY at DESC, id DESC LIMIT :limit
                        """)
                .bind("ws", workspaceId).bind("limit", limit)
                .map((rs, ctx) -> new Entry(rs.getTimestamp("at").toInstant(), rs.getString("actor_email"),
                        rs.getString("action"), rs.getString("target"), rs.getString("detail")))
                .list());
    }
}
