package dev.lnp.api.internal.keys;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A workspace's external connections and their API keys, as the console administers them (the kernel's, which the
 * operator's key commands use too). Every change is effective on the connection's next request, on every node.
 */
public interface ConnectionAdmin {

    /** What an operator asks for. Exactly one of scopes or preset is given. */
    record NewConnection(UUID workspaceId, String name, List<String> scopes, String preset,
            Instant expiresAt, UUID delegatedUserId) {
    }

    record Issued(UUID connectionId, UUID identityId, String key) {
    }

    record Listed(UUID connectionId, String name, UUID identityId, List<String> scopes, String preset,
            Instant expiresAt, Instant createdAt, Instant revokedAt, List<KeyInfo> keys) {
    }

    record KeyInfo(String prefix, boolean legacy, Instant createdAt, Instant validUntil, Instant revokedAt,
            Instant lastUsedAt) {
        /**
         * What the API does with the key at {@code now}: {@code revoked}; {@code retired} once a rotation's grace
         * period has ended (it gets 401; at once for a rotation without grace); {@code retiring} while that grace
         * period runs; else {@code active}.
         */
        public String state(Instant now) {
            if (revokedAt != null) {
                return "revoked";
            }
            if (validUntil == null) {
                return "active";
            }
            return validUntil.isAfter(now) ? "retiring" : "retired";
        }
    }

    /** An active connection of the workspace already has the name asked for. */
    final class DuplicateName extends IllegalArgumentException {
        public DuplicateName(String name) {
            super("this workspace already has an active connection named " + name);
        }
    }

    /**
     * Creates a connection with its first key, refusing with {@link DuplicateName} when an active (not revoked)
     * connection of the workspace has the same name, compared without case.
     */
    Issued createUniquelyNamed(NewConnection request);

    /**
     * Issues a new secret for the same connection (same identity, same history). Older secrets stop working
     * after {@code grace} (immediately when zero).
     */
    Issued rotate(UUID connectionId, Duration grace);

    /** Revokes the connection and every secret it has. */
    void revoke(UUID connectionId);

    /**
     * Sets which tools the connection may call on the MCP surfaces, on top of its scopes: only those on
     * {@code allow} (null: no allow list), never those on {@code deny}, and only read-only tools when
     * {@code readOnlyTools}.
     */
    void setToolPolicy(UUID connectionId, List<String> allow, List<String> deny, boolean readOnlyTools);

    /** The workspace's connections with their keys. */
    List<Listed> list(UUID workspaceId);
}
