package dev.lnp.api.internal.tokens;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Short-lived signed tokens (JWT, ES256) for browser sessions, e.g. a chat widget's visitor. The signing keys are
 * a ring kept in the database, so every node issues and verifies the same tokens: a new key signs every
 * {@code lnp.tokens.rotation} (default 24 hours), older keys keep verifying until the last token they signed has
 * expired. Tokens carry {@code iss} (the platform), {@code aud}, {@code iat}, {@code exp}, {@code jti} and a
 * {@code kid} header; the claims given are added as strings. A lifetime is at most 15 minutes.
 * Offered by the platform through {@code PluginContext.service(SessionTokens.class)}.
 */
public interface SessionTokens {

    Duration MAX_LIFETIME = Duration.ofMinutes(15);

    /** Signs a token for {@code audience} with {@code claims} (names other than the registered ones). */
    Issued issue(String audience, Map<String, String> claims, Duration lifetime);

    /**
     * Checks signature (known kid, ES256 only: {@code alg: none} or another algorithm is refused), issuer,
     * audience and expiry; returns the token's own claims.
     *
     * @throws Rejected when the token is not valid ({@link Rejected#expired()} when only its time is up)
     */
    Map<String, String> verify(String audience, String token) throws Rejected;

    record Issued(String token, Instant expiresAt, String id) {
    }

    /** A token that is malformed, forged, for another audience, or expired. */
    final class Rejected extends Exception {
        private final boolean expired;

        public Rejected(String message, boolean expired) {
            super(message);
            this.expired = expired;
        }

        /** Whether the token was valid but its time is up (the client should get a new one). */
        public boolean expired() {
            return expired;
        }
    }
}
