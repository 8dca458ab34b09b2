package dev.lnp.api.workspace;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Who is calling: an external connection's key, bound to one workspace.
 *
 * @param identityId the connection's non-login service identity, or the delegated user when delegation is on
 * @param delegatedUserId the human user writes are attributed to, when the connection delegates
 * @param role the effective role (the delegated user's, when delegating)
 */
public record Principal(
        UUID workspaceId,
        UUID connectionId,
        UUID identityId,
        Optional<UUID> delegatedUserId,
        String role,
        Set<String> scopes,
        Optional<Instant> expiresAt) {

    public boolean has(String scope) {
        return scopes.contains(scope);
    }

    /** The identity that actions are attributed to. */
    public UUID actorId() {
        return delegatedUserId.orElse(identityId);
    }
}
