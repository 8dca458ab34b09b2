package dev.lnp.api.internal.workspaces;

import java.util.UUID;

/**
 * Creates workspaces for plugins that hand one to a person (e.g. an agent trial approved by its owner), with the
 * same rules as {@code platform workspace create}: the workspace and its owner user in one transaction. Obtained
 * with {@code context.service(WorkspaceProvisioning.class)}.
 */
public interface WorkspaceProvisioning {

    /**
     * @param name 1 to 200 characters
     * @param ownerEmail the owner's address; the owner signs in to the console with it
     * @param trial marks the workspace as a trial (evaluation) workspace
     * @throws IllegalArgumentException for a bad name or address, naming the field
     */
    ProvisionedWorkspace create(String name, String ownerEmail, boolean trial);

    /** The new workspace and its owner user. */
    record ProvisionedWorkspace(UUID workspaceId, String name, String ownerEmail, UUID ownerUserId) {
    }
}
