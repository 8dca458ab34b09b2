package dev.lnp.web.console;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * One-time links that sign a person in: a sign-in link (bound to the browser that asked for it, short-lived)
 * or an invitation (sent to someone else, so not bound to a browser). Only hashes of the token and of the
 * browser's pre-sign-in nonce are stored; a link works once.
 */
public final class SignInLinks {

    public enum Purpose { SIGN_IN, INVITATION }

    public enum Outcome { SIGNED_IN, UNKNOWN, EXPIRED, ALREADY_USED, OTHER_BROWSER }

    /** @param returnTo the local path to go to after signing in (a sign-in started from a plugin page), or null */
    public record Result(Outcome outcome, String email, Purpose purpose, UUID workspaceId, String returnTo) {
    }

    private final Jdbi jdbi;

    public SignInLinks(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /** @param browserNonce the pre-sign-in cookie of the asking browser; null for an invitation */
    public String issue(String email, String browserNonce, Purpose purpose, UUID workspaceId, Duration validFor) {
        return issue(email, browserNonce, purpose, workspaceId, validFor, null);
    }

    /** @param returnTo a local path checked by {@link ReturnPaths#check} to go to after signing in, or null */
    public String issue(String email, String browserNonce, Purpose purpose, UUID workspaceId, Duration validFor,
            String returnTo) {
        return jdbi.withHandle(h -> issue(h, email, browserNonce, purpose, workspaceId, validFor, returnTo));
    }

    /** As {@link #issue(String, String, Purpose, UUID, Duration, String)}, through the caller's transaction. */
    public String issue(Handle h, String email, String browserNonce, Purpose purpose, UUID workspaceId,
            Duration validFor, String returnTo) {
        String token = Secrets.newToken();
        h.createUpdate("DELETE FROM lnp_core.sign_in_links WHERE expires_at < now() - interval '1 day'").execute();
        h.createUpdate("""
                        INSERT INTO lnp_core.sign_in_links (token_hash, browser_hash, email, purpose, workspace_id, expires_at, return_to)
                        VALUES (:token, :browser, :email, :purpose, CAST(:ws AS uuid), now() + CAST(:valid AS interval), :return_to)
                        """)
                .bind("token", Secrets.hash(token))
                .bind("browser", browserNonce == null ? null : Secrets.hash(browserNonce))
                .bind("email", email)
                .bind("purpose", purpose.name().toLowerCase(java.util.Locale.ROOT))
                .bind("ws", workspaceId)
                .bind("valid", validFor.toSeconds() + " seconds")
                .bind("return_to", returnTo)
                .execute();
        return token;
    }

    /**
     * Uses the link: it succeeds once, before its expiry, and (for a sign-in link) only in the browser whose
     * nonce was stored with it. A link opened in another browser stays unused, so the right browser can still
     * use it.
     */
    public Result use(String token, String browserNonce) {
        if (token == null || token.isEmpty() || token.length() > 100) {
            return new Result(Outcome.UNKNOWN, null, null, null, null);
        }
        return jdbi.inTransaction(h -> {
            Optional<Object[]> row = h.createQuery("""
                            SELECT id, browser_hash, email, purpose, workspace_id, expires_at <= now() AS expired,
                                   used_at IS NOT NULL AS used, return_to
                              FROM lnp_core.sign_in_links WHERE token_hash = :hash FOR UPDATE
                            """)
                    .bind("hash", Secrets.hash(token))
                    .map((rs, ctx) -> new Object[] {rs.getObject("id", UUID.class), rs.getBytes("browser_hash"),
                            rs.getString("email"), rs.getString("purpose"), rs.getObject("workspace_id", UUID.class),
                            rs.getBoolean("expired"), rs.getBoolean("used"), rs.getString("return_to")})
                    .findOne();
            if (row.isEmpty()) {
                return new Result(Outcome.UNKNOWN, null, null, null, null);
            }
            Object[] r = row.get();
            Purpose purpose = Purpose.valueOf(((String) r[3]).toUpperCase(java.util.Locale.ROOT));
            if ((Boolean) r[6]) {
                return new Result(Outcome.ALREADY_USED, null, purpose, null, null);
            }
            if ((Boolean) r[5]) {
                return new Result(Outcome.EXPIRED, null, purpose, null, null);
            }
            byte[] browser = (byte[]) r[1];
            if (browser != null && (browserNonce == null || !java.security.MessageDigest.isEqual(browser,
                    Secrets.hash(browserNonce)))) {
                return new Result(Outcome.OTHER_BROWSER, null, purpose, null, null);
            }
            h.createUpdate("UPDATE lnp_core.sign_in_links SET used_at = now() WHERE id = :id").bind("id", r[0]).execute();
            return new Result(Outcome.SIGNED_IN, (String) r[2], purpose, (UUID) r[4], (String) r[7]);
        });
    }
}
