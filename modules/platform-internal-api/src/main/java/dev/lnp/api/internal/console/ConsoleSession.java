package dev.lnp.api.internal.console;

import java.time.Instant;
import java.util.UUID;

/** A signed-in console session; {@code userId} and the workspace are null until a workspace is chosen. */
public record ConsoleSession(UUID id, String email, UUID userId, UUID workspaceId, String workspaceName, String role,
        String csrfToken, Instant createdAt) {

    public boolean hasWorkspace() {
        return userId != null;
    }
}
