package dev.lnp.api.workspace;

import dev.lnp.api.events.EventPublisher;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * One database transaction bound to one workspace: the {@link Handle} has the workspace set for row-level
 * security, and events published here are written to the outbox in the same transaction.
 */
public interface WorkspaceTx {

    UUID workspaceId();

    Handle handle();

    EventPublisher events();

    /** Whether {@code userId} is a human user (owner, admin or member) of this workspace. */
    boolean isUser(UUID userId);
}
