package dev.lnp.web.console;

import dev.lnp.api.internal.console.ConsoleSession;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Console sessions. The cookie carries a random token; only its hash is stored. A token is only ever made
 * here, on sign-in or on a change of privilege, never taken from the browser (no session fixation). The role is
 * read from the user row on every request, so a role change applies at once.
 */
public final class ConsoleSessions {

    /** A live session; userId, workspaceId, workspaceName and role are null until a workspace is chosen. */
    public record Issued(String token, ConsoleSession session) {
    }

    public record Listed(UUID id, String workspaceName, Instant createdAt, Instant lastSeenAt, Instant expiresAt,
            String userAgent, String clientIp, boolean current) {
    }

    private final Jdbi jdbi;
    private final Duration lifetime;

    public ConsoleSessions(Jdbi jdbi, Duration lifetime) {
        this.jdbi = jdbi;
        this.lifetime = lifetime;
    }

    public Issued create(String email, UUID userId, String userAgent, String clientIp) {
        return jdbi.inTransaction(h -> insert(h, email, userId, userAgent, clientIp));
    }

    /** Ends {@code old} and issues a new token for the same person acting as {@code userId}. */
    public Issued renew(ConsoleSession old, UUID userId, String userAgent, String clientIp) {
        return jdbi.inTransaction(h -> {
            h.createUpdate("UPDATE lnp_core.console_sessions SET revoked_at = now() WHERE id = :id")
                    .bind("id", old.id()).execute();
            Issued issued = insert(h, old.email(), userId, userAgent, clientIp);
            // A session that began at the OpenID Connect provider still signs out there under its new id.
            h.createUpdate("UPDATE lnp_web.oidc_sessions SET session_id = :new WHERE session_id = :old")
                    .bind("new", issued.session().id()).bind("old", old.id()).execute();
            return issued;
        });
    }

    public Optional<ConsoleSession> find(String token) {
        if (token == null || token.isEmpty() || token.length() > 100) {
            return Optional.empty();
        }
        return jdbi.withHandle(h -> {
            Optional<ConsoleSession> session = h.createQuery("""
                            SELECT s.id, s.email, s.user_id, s.csrf_token, s.created_at, u.workspace_id, u.role,
                                   w.name AS workspace_name,
                                   s.last_seen_at < now() - interval '1 minute' AS stale
                              FROM lnp_core.console_sessions s
                              LEFT JOIN lnp_core.users u ON u.id = s.user_id AND lower(u.email) = lower(s.email)
                              LEFT JOIN lnp_core.workspaces w ON w.id = u.workspace_id
                             WHERE s.token_hash = :hash AND s.revoked_at IS NULL AND s.expires_at > now()
                               AND (s.user_id IS NULL OR u.id IS NOT NULL)
                            """)
                    .bind("hash", Secrets.hash(token))
                    .map((rs, ctx) -> {
                        if (rs.getBoolean("stale")) {
                            h.createUpdate("UPDATE lnp_core.console_sessions SET last_seen_at = now() WHERE id = :id")
                                    .bind("id", rs.getObject("id", UUID.class)).execute();
                        }
                        return new ConsoleSession(rs.getObject("id", UUID.class), rs.getString("email"),
                                rs.getObject("user_id", UUID.class), rs.getObject("workspace_id", UUID.class),
                                rs.getString("workspace_name"), rs.getString("role"), rs.getString("csrf_token"),
                                rs.getTimestamp("created_at").toInstant());
                    })
                    .findOne();
            return session;
        });
    }

    public void end(UUID sessionId) {
        jdbi.useHandle(h -> h.createUpdate("UPDATE lnp_core.console_sessions SET revoked_at = now() WHERE id = :id")
                .bind("id", sessionId).execute());
    }

    /** Ends one of the person's own sessions; false when {@code sessionId} is not theirs or already ended. */
    public boolean endOwn(String email, UUID sessionId) {
        return jdbi.withHandle(h -> h.createUpdate("""
                        UPDATE lnp_core.console_sessions SET revoked_at = now()
                         WHERE id = :id AND lower(email) = lower(:email) AND revoked_at IS NULL
                        """)
                .bind("id", sessionId).bind("email", email).execute() == 1);
    }

    public List<Listed> listOwn(String email, UUID currentSessionId) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT s.id, w.name AS workspace_name, s.created_at, s.last_seen_at, s.expires_at,
                               s.user_agent, s.client_ip
                          FROM lnp_core.console_sessions s
                          LEFT JOIN lnp_core.users u ON u.id = s.user_id
                          LEFT JOIN lnp_core.workspaces w ON w.id = u.workspace_id
                         WHERE lower(s.email) = lower(:email) AND s.revoked_at IS NULL AND s.expires_at > now()
                         ORDER BY s.last_seen_at DESC
                         LIMIT 100
                        """)
                .bind("email", email)
                .map((rs, ctx) -> new Listed(rs.getObject("id", UUID.class), rs.getString("workspace_name"),
                        rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("last_seen_at").toInstant(),
                        rs.getTimestamp("expires_at").toInstant(), rs.getString("user_agent"),
                        rs.getString("client_ip"), rs.getObject("id", UUID.class).equals(currentSessionId)))
                .list());
    }

    private Issued insert(Handle h, String email, UUID userId, String userAgent, String clientIp) {
        String token = Secrets.newToken();
        String csrf = Secrets.newToken();
        var row = h.createQuery("""
                        INSERT INTO lnp_core.console_sessions
                               (token_hash, csrf_token, email, user_id, expires_at, user_agent, client_ip)
                        VALUES (:hash, :csrf, :email, CAST(:user AS uuid), now() + CAST(:lifetime AS interval), :ua, :ip)
                        RETURNING id, created_at
                        """)
                .bind("hash", Secrets.hash(token)).bind("csrf", csrf).bind("email", email).bind("user", userId)
                .bind("lifetime", lifetime.toSeconds() + " seconds")
                .bind("ua", userAgent == null ? null : truncate(userAgent, 300))
                .bind("ip", clientIp)
                .map((rs, ctx) -> new Object[] {rs.getObject("id", UUID.class), rs.getTimestamp("created_at").toInstant()})
                .one();
        ConsoleSession session = new ConsoleSession((UUID) row[0], email, userId, null, null, null, csrf, (Instant) row[1]);
        return new Issued(token, session);
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
