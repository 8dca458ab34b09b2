package dev.lnp.api.internal.db;

import dev.lnp.api.PluginContext;
import dev.lnp.api.workspace.WorkspaceTx;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;

/** The kernel's database transactions, as its subsystems (mail, the console, webhooks) use them. */
public interface Transactions {

    /** The workspace transaction open on this thread (a request's, or {@link #inWorkspace}), if any. */
    Optional<WorkspaceTx> onThisThread();

    /** Runs {@code work} in one transaction of {@code workspaceId}, row-level security applying. */
    <R> R inWorkspace(UUID workspaceId, PluginContext.WorkspaceWork<R> work);

    /** Runs {@code work} in one transaction that belongs to no workspace (deployment-wide rows). */
    <R> R outsideWorkspace(PluginContext.WorkspaceWork<R> work);

    /** Runs {@code work} in a transaction as the platform's own role (no workspace, no row-level security). */
    <R> R acrossWorkspaces(Function<Handle, R> work);
}
