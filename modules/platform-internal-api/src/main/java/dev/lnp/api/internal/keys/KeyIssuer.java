package dev.lnp.api.internal.keys;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * Issues and revokes keys for a workspace on behalf of a plugin (e.g. the agent-trial credential), as an
 * External Connection with its own service identity, exactly like a key an owner creates. Obtained with
 * {@code context.service(KeyIssuer.class)}. Keys are looked up on every request, so a revocation takes effect
 * on the next request on every node.
 */
public interface KeyIssuer {

    /**
     * Creates the connection and its key. The full key exists only in the returned value: store a hash if you
     * need to recognise it.
     *
     * @throws IllegalArgumentException for a bad grant (unknown workspace or preset, expiry in the past, negative
     *         budget), naming what is wrong
     */
    IssuedKey issue(KeyGrant grant);

    /** Revokes the connection and every key it has; revoking a revoked connection does nothing. */
    void revoke(UUID connectionId);

    /** The connection's expiry, revocation and tool-call budget as of now; empty for an unknown connection. */
    Optional<KeyState> state(UUID connectionId);

    /**
     * What to issue.
     *
     * @param name the connection's name as the owner sees it in the console (1 to 200 characters)
     * @param preset {@code read-only} or {@code full-access}
     * @param expiresAt when the key stops working (required: plugin-issued keys always expire)
     * @param mcpOnly the key works on the MCP surface only; REST routes answer 403 {@code key_not_valid_for_rest}
     * @param toolCallBudget a lifetime budget of tool calls (the call beyond it gets 403
     *                       {@code tool_call_budget_exhausted}), or null for none
     */
    record KeyGrant(UUID workspaceId, String name, String preset, Instant expiresAt, boolean mcpOnly,
            Integer toolCallBudget) {
    }

    /** The issued key (shown once), its connection, and what it was issued with. */
    record IssuedKey(UUID connectionId, String key, Instant expiresAt, Integer toolCallBudget) {
        @Override
        public String toString() {
            return "IssuedKey[connectionId=" + connectionId + ", key=<hidden>, expiresAt=" + expiresAt + "]";
        }
    }

    /** A plugin-issued connection as it stands. */
    record KeyState(UUID connectionId, UUID workspaceId, Instant expiresAt, Instant revokedAt,
            Integer toolCallBudget, int toolCallsUsed) {

        public Integer toolCallsLeft() {
            return toolCallBudget == null ? null : Math.max(0, toolCallBudget - toolCallsUsed);
        }
    }
}
