package dev.lnp.core.auth;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A key found by its hash, with its connection: everything authentication needs, in one query.
 *
 * @param workspaceQuotas the workspace's own monthly quota limits, by quota name (usually none)
 * @param mcpOnly the key works on the MCP surface only (REST answers 403 {@code key_not_valid_for_rest})
 * @param toolCallBudget the connection's lifetime budget of tool calls, or null for none
 * @param toolCallsUsed tool calls taken from that budget so far (when the key was looked up)
 */
public record KeyRecord(
        UUID keyId,
        boolean legacy,
        Instant keyValidUntil,
        Instant keyRevokedAt,
        UUID connectionId,
        UUID workspaceId,
        UUID identityId,
        List<String> scopes,
        String preset,
        Instant connectionExpiresAt,
        Instant connectionRevokedAt,
        boolean delegationEnabled,
        UUID delegatedUserId,
        String delegatedUserRole,
        List<String> toolAllow,
        List<String> toolDeny,
        boolean readOnlyTools,
        Integer restPerMinute,
        Integer mcpPerMinute,
        Map<String, Long> workspaceQuotas,
        List<String> disabledModules,
        boolean mcpOnly,
        Integer toolCallBudget,
        int toolCallsUsed) {
}
