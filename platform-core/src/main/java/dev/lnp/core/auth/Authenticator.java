package dev.lnp.core.auth;

import dev.lnp.api.Principal;
import dev.lnp.core.auth.AuthorizationHeader.Unauthorized;
import dev.lnp.core.limits.RateLimiter;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns an Authorization header into a {@link Principal}, or a 401. Keys are looked up on every request (one
 * indexed query, which also records the key's use and counts the request for the rate limit: see
 * {@link KeyRepository#admit}), so revocation takes effect at once on every node.
 */
public final class Authenticator {

    private final KeyRepository keys;
    private final ScopeCatalog scopes;
    private final Clock clock;
    private final Instant legacyKeysUntil;

    /**
     * @param legacyKeysUntil the end of the compatibility period for {@code wks_} keys, or null while the operator
     *                        has not set one (the contract: legacy keys "are still accepted during a compatibility
     *                        period", so the period is open until an end is chosen)
     */
    public Authenticator(KeyRepository keys, ScopeCatalog scopes, Clock clock, Instant legacyKeysUntil) {
        this.keys = keys;
        this.scopes = scopes;
        this.clock = clock;
        this.legacyKeysUntil = legacyKeysUntil;
    }

    /**
     * @param window where to count the request (the rate limit of its surface), or null to only look the key up
     */
    public Authenticated authenticate(List<String> authorizationHeaders, RateLimiter.Window window) {
        String key = AuthorizationHeader.bearerKey(authorizationHeaders);
        Instant now = clock.instant();
        boolean legacyAccepted = legacyKeysUntil == null || now.isBefore(legacyKeysUntil);
        KeyRepository.Admission admission = keys.admit(ApiKeys.hash(key), now, legacyAccepted, window)
                .orElseThrow(Unauthorized::invalid);
        KeyRecord record = admission.key();
        if (record.keyRevokedAt() != null || record.connectionRevokedAt() != null) {
            throw Unauthorized.revoked();
        }
        if (record.keyValidUntil() != null && !now.isBefore(record.keyValidUntil())
                || record.connectionExpiresAt() != null && !now.isBefore(record.connectionExpiresAt())) {
            throw Unauthorized.expired();
        }
        if (record.legacy() && !legacyAccepted) {
            throw Unauthorized.legacyRetired();
        }
        return new Authenticated(principal(record), record, admission.hits() == null ? 0 : admission.hits());
    }

    private Principal principal(KeyRecord record) {
        Set<String> granted = new LinkedHashSet<>(record.scopes());
        granted.addAll(scopes.preset(record.preset()));
        String role = "service";
        Optional<java.util.UUID> delegated = Optional.empty();
        if (record.delegationEnabled() && record.delegatedUserId() != null) {
            role = record.delegatedUserRole();
            delegated = Optional.of(record.delegatedUserId());
            granted.retainAll(scopes.allowedForRole(role));
        }
        granted.retainAll(scopes.all());
        return new Principal(record.workspaceId(), record.connectionId(), record.identityId(), delegated, role,
                scopes.effective(granted), Optional.ofNullable(record.connectionExpiresAt()));
    }

    /**
     * The principal, the connection settings the limits and the MCP filter need, and the request's number in its
     * rate-limit window (0 when it was not counted).
     */
    public record Authenticated(Principal principal, KeyRecord key, int hits) {
    }
}
