package dev.lnp.api.crm;

import dev.lnp.api.workspace.WorkspaceTx;
import java.util.UUID;

/**
 * What other plugins may ask about CRM deals (e.g. projects checking a project's {@code deal_id}), offered by the
 * CRM plugin through {@code Registrar.provide} and found through {@code PluginContext.service(DealDirectory.class)};
 * absent when the CRM plugin is not deployed. The lookup runs in the caller's transaction, under its workspace's
 * row-level security, so a deal of another workspace does not exist here.
 */
public interface DealDirectory {

    /** Whether a deal with this id belongs to the transaction's workspace. */
    boolean exists(WorkspaceTx tx, UUID dealId);
}
