package dev.lnp.core.auth;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A key found by its hash, with its connection: everything authentication needs, in one query. */
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
        Long workspaceCrmQuota,
        List<String> disabledModules) {
}
