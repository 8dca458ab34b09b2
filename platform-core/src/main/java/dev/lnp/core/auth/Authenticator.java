package dev.lnp.core.auth;

import dev.lnp.api.Principal;
import dev.lnp.core.auth.AuthorizationHeader.Unauthorized;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns an Authorization header into a {@link Principal}, or a 401. Keys are looked up on every request (one
 * indexed query), so revocation takes effect at once on every node. The key's last use is recorded by the
 * rate limiter's statement ({@code RateLimiter.hit}), which every authenticated request runs next.
 */
public final class Authenticator {

    private final KeyRepository keys;
    private final ScopeCatalog scopes;
    private final Clock clock;
    private final Instant legacyKeysUntil;

    /** @param legacyKeysUntil the end of the compatibility period for {@code wks_} keys, or null for none */
    public Authenticator(KeyRepository keys, ScopeCatalog scopes, Clock clock, Instant legacyKeysUntil) {
        this.keys = keys;
        this.scopes = scopes;
        this.clock = clock;
        this.legacyKeysUntil = legacyKeysUntil;
    }

    public Authenticated authenticate(List<String> authorizationHeaders) {
        String key = AuthorizationHeader.bearerKey(authorizationHeaders);
        KeyRecord record = keys.findByHash(ApiKeys.hash(key)).orElseThrow(Unauthorized::invalid);
        Instant now = clock.instant();
        if (record.keyRevokedAt() != null || record.connectionRevokedAt() != null) {
            throw Unauthorized.revoked();
        }
        if (record.keyValidUntil() != null && !now.isBefore(record.keyValidUntil())
                || record.connectionExpiresAt() != null && !now.isBefore(record.connectionExpiresAt())) {
            throw Unauthorized.expired();
        }
        if (record.legacy() && (legacyKeysUntil == null || !now.isBefore(legacyKeysUntil))) {
            throw Unauthorized.legacyRetired();
        }
        return new Authenticated(principal(record), record);
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
                Set.copyOf(granted), Optional.ofNullable(record.connectionExpiresAt()));
    }

    /** The principal and the connection settings the limits and the MCP filter need. */
    public record Authenticated(Principal principal, KeyRecord key) {
    }
}
