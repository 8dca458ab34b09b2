package dev.lnp.oauth;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The grants people consented to, their authorization codes and their tokens (hashes only). A code is claimed, and a
 * refresh token spent, by a statement that records the use, so that two concurrent uses cannot both succeed; a
 * second use of either is reported ({@link Claim#reused}) so that the caller revokes the grant.
 */
final class Grants {

    /**
     * A grant as its pages show it. A grant whose connection an admin revoked under External connections counts as
     * revoked ({@code connection_revoked}): its tokens stand for a revoked key.
     */
    record Grant(UUID id, String clientId, String clientName, String redirectHost, UUID workspaceId, UUID userId,
            String email, String resource, List<String> scopes, List<String> tools, UUID connectionId,
            Instant createdAt, Instant activatedAt, Instant revokedAt, String revokedReason, Instant lastTokenAt) {

        String state() {
            return revokedAt != null ? "revoked" : activatedAt == null ? "not completed" : "active";
        }
    }

    /** A code or refresh token looked up for its use: its grant, and whether it was already used or has expired. */
    record Claim(UUID grantId, boolean reused, boolean expired, String redirectUri, String codeChallenge) {
    }

    private static final String GRANT_COLUMNS = """
            g.id, g.client_id, c.client_name, c.redirect_uris[1], g.workspace_id, g.user_id, u.email, g.resource,
            g.scopes, g.tools, g.connection_id, g.created_at, g.activated_at,
            coalesce(g.revoked_at, k.revoked_at), coalesce(g.revoked_reason, CASE WHEN k.revoked_at IS NOT NULL
                THEN 'connection_revoked' END),
            (SELECT max(t.expires_at) FROM lnp_oauth.tokens t WHERE t.grant_id = g.id AND t.kind = 'access')
            """;
    private static final String GRANT_FROM = """
            FROM lnp_oauth.grants g JOIN lnp_oauth.clients c ON c.client_id = g.client_id
                 JOIN lnp_core.users u ON u.id = g.user_id
                 LEFT JOIN lnp_core.connections k ON k.id = g.connection_id
            """;

    private final Jdbi jdbi;

    Grants(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /** A consent and its first code, in one transaction. */
    UUID consent(String clientId, UUID workspaceId, UUID userId, String resource, List<String> scopes,
            List<String> tools, String code, String redirectUri, String codeChallenge, Instant codeExpiresAt) {
        return jdbi.inTransaction(h -> {
            UUID id = h.createQuery("""
                            INSERT INTO lnp_oauth.grants (client_id, workspace_id, user_id, resource, scopes, tools)
                            VALUES (:client, :ws, :user, :resource, :scopes, :tools) RETURNING id""")
                    .bind("client", clientId).bind("ws", workspaceId).bind("user", userId).bind("resource", resource)
                    .bind("scopes", scopes.toArray(String[]::new))
                    .bind("tools", tools == null ? null : tools.toArray(String[]::new))
                    .mapTo(UUID.class).one();
            h.createUpdate("""
                            INSERT INTO lnp_oauth.codes (code_hash, grant_id, redirect_uri, code_challenge, expires_at)
                            VALUES (:hash, :grant, :redirect, :challenge, :expires)""")
                    .bind("hash", Secrets.sha256(code)).bind("grant", id).bind("redirect", redirectUri)
                    .bind("challenge", codeChallenge).bind("expires", codeExpiresAt).execute();
            return id;
        });
    }

    /** Looks the code up and records its use, if it had none; empty for an unknown code. */
    Optional<Claim> claimCode(String code, Instant now) {
        return jdbi.inTransaction(h -> h.createQuery("""
                        SELECT grant_id, used_at IS NOT NULL, expires_at <= :now, redirect_uri, code_challenge
                          FROM lnp_oauth.codes WHERE code_hash = :hash FOR UPDATE""")
                .bind("hash", Secrets.sha256(code)).bind("now", now)
                .map((rs, ctx) -> new Claim(rs.getObject(1, UUID.class), rs.getBoolean(2), rs.getBoolean(3),
                        rs.getString(4), rs.getString(5)))
                .findOne().map(claim -> {
                    h.createUpdate("UPDATE lnp_oauth.codes SET used_at = :now WHERE code_hash = :hash AND used_at IS NULL")
                            .bind("hash", Secrets.sha256(code)).bind("now", now).execute();
                    return claim;
                }));
    }

    /** A refresh token as it stands (its grant, whether it was used or has expired); empty for an unknown one. */
    Optional<Claim> refreshToken(String token, Instant now) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT grant_id, used_at IS NOT NULL, expires_at <= :now FROM lnp_oauth.tokens
                         WHERE token_hash = :hash AND kind = 'refresh'""")
                .bind("hash", Secrets.sha256(token)).bind("now", now)
                .map((rs, ctx) -> new Claim(rs.getObject(1, UUID.class), rs.getBoolean(2), rs.getBoolean(3), null,
                        null))
                .findOne());
    }

    /** Records the refresh token's use; false when it was used already (a concurrent use won). */
    boolean spendRefreshToken(String token, Instant now) {
        return jdbi.withHandle(h -> h.createUpdate("""
                        UPDATE lnp_oauth.tokens SET used_at = :now
                         WHERE token_hash = :hash AND kind = 'refresh' AND used_at IS NULL""")
                .bind("hash", Secrets.sha256(token)).bind("now", now).execute()) == 1;
    }

    Optional<Grant> find(UUID grantId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT " + GRANT_COLUMNS + GRANT_FROM + " WHERE g.id = :id")
                .bind("id", grantId).map((rs, ctx) -> grant(rs)).findOne());
    }

    /** The grants of a workspace people completed, newest first; of one user when {@code userId} is given. */
    List<Grant> completedIn(UUID workspaceId, UUID userIdOrNull) {
        return jdbi.withHandle(h -> h.createQuery("SELECT " + GRANT_COLUMNS + GRANT_FROM + """
                         WHERE g.workspace_id = :ws AND g.activated_at IS NOT NULL
                           AND (CAST(:user AS text) IS NULL OR g.user_id = CAST(:user AS uuid))
                         ORDER BY coalesce(g.revoked_at, k.revoked_at) IS NOT NULL, g.created_at DESC LIMIT 500""")
                .bind("ws", workspaceId).bind("user", userIdOrNull == null ? null : userIdOrNull.toString()).map((rs, ctx) -> grant(rs)).list());
    }

    /** Records the connection the grant's tokens stand for; false when the grant was revoked meanwhile. */
    boolean activate(UUID grantId, UUID connectionId, byte[] keyHash, Instant now) {
        return jdbi.withHandle(h -> h.createUpdate("""
                        UPDATE lnp_oauth.grants SET connection_id = :connection, key_hash = :hash, activated_at = :now
                         WHERE id = :id AND revoked_at IS NULL AND activated_at IS NULL""")
                .bind("id", grantId).bind("connection", connectionId).bind("hash", keyHash).bind("now", now)
                .execute()) == 1;
    }

    /**
     * A new access token and refresh token of the grant; the access token limited to {@code accessScopes} (null:
     * the grant's).
     */
    void issue(UUID grantId, String accessToken, Instant accessExpiresAt, List<String> accessScopes,
            String refreshToken, Instant refreshExpiresAt) {
        jdbi.useTransaction(h -> {
            insertToken(h, accessToken, grantId, "access", accessExpiresAt, accessScopes);
            insertToken(h, refreshToken, grantId, "refresh", refreshExpiresAt, null);
        });
    }

    private static void insertToken(Handle h, String token, UUID grantId, String kind, Instant expiresAt,
            List<String> scopes) {
        h.createUpdate("""
                        INSERT INTO lnp_oauth.tokens (token_hash, grant_id, kind, expires_at, scopes)
                        VALUES (:hash, :grant, :kind, :expires, :scopes)""")
                .bind("hash", Secrets.sha256(token)).bind("grant", grantId).bind("kind", kind)
                .bind("expires", expiresAt).bind("scopes", scopes == null ? null : scopes.toArray(String[]::new))
                .execute();
    }

    /**
     * Revokes the grant and deletes its tokens, answering the connection to revoke with it (null when it had none
     * yet, or was already revoked).
     */
    Optional<UUID> revoke(UUID grantId, String reason, Instant now) {
        return jdbi.inTransaction(h -> {
            h.createUpdate("DELETE FROM lnp_oauth.tokens WHERE grant_id = :id").bind("id", grantId).execute();
            return h.createQuery("""
                            UPDATE lnp_oauth.grants SET revoked_at = :now, revoked_reason = :reason
                             WHERE id = :id AND revoked_at IS NULL RETURNING connection_id""")
                    .bind("id", grantId).bind("now", now).bind("reason", reason)
                    .mapTo(UUID.class).findOne();
        });
    }

    /** Deletes one access token (RFC 7009 for an access token: the grant stays). */
    void deleteAccessToken(String token) {
        jdbi.useHandle(h -> h.createUpdate("DELETE FROM lnp_oauth.tokens WHERE token_hash = :hash AND kind = 'access'")
                .bind("hash", Secrets.sha256(token)).execute());
    }

    /** The grant a token of either kind belongs to, if the token is known. */
    Optional<UUID> grantOfToken(String token) {
        return jdbi.withHandle(h -> h.createQuery("SELECT grant_id FROM lnp_oauth.tokens WHERE token_hash = :hash")
                .bind("hash", Secrets.sha256(token)).mapTo(UUID.class).findOne());
    }

    /**
     * The key hash an access token stands for on {@code resource}, while it and its grant are live, with the scopes
     * the token is limited to (empty: the grant's).
     */
    Optional<dev.lnp.api.internal.keys.DelegatedTokens.Delegation> delegationOf(String accessToken, String resource,
            Instant now) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT g.key_hash, t.scopes FROM lnp_oauth.tokens t JOIN lnp_oauth.grants g ON g.id = t.grant_id
                         WHERE t.token_hash = :hash AND t.kind = 'access' AND t.expires_at > :now
                           AND g.revoked_at IS NULL AND g.key_hash IS NOT NULL AND g.resource = :resource""")
                .bind("hash", Secrets.sha256(accessToken)).bind("now", now).bind("resource", resource)
                .map((rs, ctx) -> {
                    java.sql.Array scopes = rs.getArray(2);
                    return new dev.lnp.api.internal.keys.DelegatedTokens.Delegation(rs.getBytes(1),
                            scopes == null ? Optional.empty()
                                    : Optional.of(java.util.Set.of((String[]) scopes.getArray())));
                })
                .findOne());
    }

    /**
     * Deletes tokens that expired a day ago, codes past their lifetime and grants never completed within a day;
     * answers how many rows went.
     */
    int purge(Instant now) {
        Instant dayAgo = now.minus(Duration.ofDays(1));
        return jdbi.withHandle(h -> h.createUpdate("DELETE FROM lnp_oauth.tokens WHERE expires_at < :t")
                .bind("t", dayAgo).execute()
                + h.createUpdate("DELETE FROM lnp_oauth.codes WHERE expires_at < :t").bind("t", dayAgo).execute()
                + h.createUpdate("DELETE FROM lnp_oauth.grants WHERE activated_at IS NULL AND created_at < :t")
                        .bind("t", dayAgo).execute());
    }

    private static Grant grant(java.sql.ResultSet rs) throws java.sql.SQLException {
        java.sql.Array tools = rs.getArray(10);
        return new Grant(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3),
                RedirectUris.host(rs.getString(4)), rs.getObject(5, UUID.class), rs.getObject(6, UUID.class),
                rs.getString(7), rs.getString(8), List.of((String[]) rs.getArray(9).getArray()),
                tools == null ? null : List.of((String[]) tools.getArray()), rs.getObject(11, UUID.class),
                instant(rs, 12), instant(rs, 13), instant(rs, 14), rs.getString(15), instant(rs, 16));
    }

    private static Instant instant(java.sql.ResultSet rs, int column) throws java.sql.SQLException {
        java.sql.Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
