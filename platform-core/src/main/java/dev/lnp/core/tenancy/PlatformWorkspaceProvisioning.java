package dev.lnp.core.tenancy;

import dev.lnp.api.internal.workspaces.WorkspaceProvisioning;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/** The core's {@link WorkspaceProvisioning}: {@link Workspaces#create}, plus the trial mark. */
public final class PlatformWorkspaceProvisioning implements WorkspaceProvisioning {

    private final Jdbi jdbi;
    private final Workspaces workspaces;

    public PlatformWorkspaceProvisioning(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.workspaces = new Workspaces(jdbi);
    }

    @Override
    public ProvisionedWorkspace create(String name, String ownerEmail, boolean trial) {
        Workspaces.Workspace ws = workspaces.create(name, ownerEmail);
        return jdbi.withHandle(h -> {
            if (trial) {
                h.createUpdate("UPDATE lnp_core.workspaces SET trial = true WHERE id = :id").bind("id", ws.id())
                        .execute();
            }
            UUID owner = h.createQuery("SELECT id FROM lnp_core.users WHERE workspace_id = :ws AND role = 'owner'")
                    .bind("ws", ws.id()).mapTo(UUID.class).one();
            return new ProvisionedWorkspace(ws.id(), ws.name(), ws.ownerEmail(), owner);
        });
    }
}
