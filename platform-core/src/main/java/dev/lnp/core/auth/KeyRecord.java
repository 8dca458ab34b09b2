package dev.lnp.core.auth;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A key found by its hash, with its connection: everything authentication needs, in one query.
 *
 * @param workspaceQuotas the workspace's own monthly quota limits, by quota name (usually none)
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
        List<String> disabledModules) {
}
