package dev.lnp.web.console;

import java.security.MessageDigest;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * Sign-ins begun at the OpenID Connect provider, between the redirect there and the callback: each state is used
 * once, before it expires, and only by the browser that began it (its pre-sign-in cookie, as for e-mailed links).
 * Also the ID tokens of the sessions that began at the provider, for signing out there.
 */
final class OidcSignIns {

    enum Outcome { STARTED, UNKNOWN, EXPIRED, ALREADY_USED, OTHER_BROWSER }

    /** What the callback needs back: the nonce the ID token must carry and the PKCE verifier. */
    record Taken(Outcome outcome, String nonce, String codeVerifier) {
        static Taken refused(Outcome outcome) {
            return new Taken(outcome, null, null);
        }
    }

    static final Duration LIFETIME = Duration.ofMinutes(10);

    private final Jdbi jdbi;

    OidcSignIns(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    void begin(String state, String browserNonce, String nonce, String codeVerifier) {
        jdbi.useHandle(h -> {
            h.createUpdate("DELETE FROM lnp_web.oidc_sign_ins WHERE expires_at < now() - interval '1 day'").execute();
            h.createUpdate("""
                            INSERT INTO lnp_web.oidc_sign_ins (state_hash, browser_hash, nonce, code_verifier, expires_at)
                            VALUES (:state, :browser, :nonce, :verifier, now() + CAST(:valid AS interval))
                            """)
                    .bind("state", Secrets.hash(state)).bind("browser", Secrets.hash(browserNonce))
                    .bind("nonce", nonce).bind("verifier", codeVerifier)
                    .bind("valid", LIFETIME.toSeconds() + " seconds")
                    .execute();
        });
    }

    /**
     * Uses the state: once, before its expiry, in the browser that began it. Opened in another browser it stays
     * unused, so the right browser can still finish.
     */
    Taken take(String state, String browserNonce) {
        if (state == null || state.isEmpty() || state.length() > 200) {
            return Taken.refused(Outcome.UNKNOWN);
        }
        return jdbi.inTransaction(h -> {
            var row = h.createQuery("""
                            SELECT id, browser_hash, nonce, code_verifier, expires_at <= now() AS expired,
                                   used_at IS NOT NULL AS used
                              FROM lnp_web.oidc_sign_ins WHERE state_hash = :hash FOR UPDATE
                            """)
                    .bind("hash", Secrets.hash(state))
                    .map((rs, ctx) -> new Object[] {rs.getObject("id", UUID.class), rs.getBytes("browser_hash"),
                            rs.getString("nonce"), rs.getString("code_verifier"), rs.getBoolean("expired"),
                            rs.getBoolean("used")})
                    .findOne();
            if (row.isEmpty()) {
                return Taken.refused(Outcome.UNKNOWN);
            }
            Object[] r = row.get();
            if ((Boolean) r[5]) {
                return Taken.refused(Outcome.ALREADY_USED);
            }
            if ((Boolean) r[4]) {
                return Taken.refused(Outcome.EXPIRED);
            }
            if (browserNonce == null || !MessageDigest.isEqual((byte[]) r[1], Secrets.hash(browserNonce))) {
                return Taken.refused(Outcome.OTHER_BROWSER);
            }
            h.createUpdate("UPDATE lnp_web.oidc_sign_ins SET used_at = now() WHERE id = :id").bind("id", r[0]).execute();
            return new Taken(Outcome.STARTED, (String) r[2], (String) r[3]);
        });
    }

    /** The session began at the provider with this ID token (the hint for signing out there). */
    void remember(UUID sessionId, String idToken) {
        jdbi.useHandle(h -> h.createUpdate("""
                        INSERT INTO lnp_web.oidc_sessions (session_id, id_token) VALUES (:id, :token)
                        """).bind("id", sessionId).bind("token", idToken).execute());
    }

    /** The ID token the session began with; empty for a session that began with an e-mailed link. */
    Optional<String> idToken(UUID sessionId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT id_token FROM lnp_web.oidc_sessions WHERE session_id = :id")
                .bind("id", sessionId).mapTo(String.class).findOne());
    }
}
