package dev.lnp.api;

import dev.lnp.api.workspace.WorkspaceTx;
import java.util.Optional;

/**
 * What a started plugin can reach of the platform: services, workspace transactions, configuration. It is given
 * to {@link PlatformPlugin#start}, and already at registration as {@link Registrar#context()}, whose lookups
 * resolve when they are made (in a handler, a tool, or from {@code start} on).
 */
public interface PluginContext extends Services {

    /**
     * A service the platform offers (e.g. {@link dev.lnp.api.mail.Mailer}) or
     * another plugin offered through {@link Registrar#provide}.
     */
    @Override
    <T> Optional<T> service(Class<T> type);

    /** Runs work in a transaction scoped to one workspace (row-level security applies). */
    <R> R inWorkspace(java.util.UUID workspaceId, WorkspaceWork<R> work);

    /**
     * Runs work in a transaction that belongs to no workspace, as the same restricted database role as request
     * transactions: every table with row-level security by workspace shows no rows and accepts none, so only a
     * plugin's own workspace-less tables are usable (e.g. agent-trial requests, which exist before any
     * workspace). {@link WorkspaceTx#workspaceId()} is null and publishing events is refused.
     */
    <R> R outsideWorkspace(WorkspaceWork<R> work);

    /**
     * Runs work in a transaction as the platform's own database user, for workers that look across workspaces
     * (a public key's owner, leases expired on any workspace). Row-level security still applies: only rows that a
     * policy for that user grants are visible, so a plugin's migration adds one explicitly to the tables its
     * workers read, as the core does:
     * {@code EXECUTE format('CREATE POLICY platform_worker ON t TO %I USING (true) WITH CHECK (true)', current_user)}.
     * Never run visitor- or caller-controlled queries here; switch to {@link #inWorkspace} as soon as the
     * workspace is known.
     */
    <R> R acrossWorkspaces(java.util.function.Function<org.jdbi.v3.core.Handle, R> work);

    /** A configuration value of this deployment, e.g. {@code lnp.crm.something}, if set. */
    Optional<String> config(String key);

    @FunctionalInterface
    interface WorkspaceWork<R> {
        R run(WorkspaceTx tx) throws Exception;
    }
}
