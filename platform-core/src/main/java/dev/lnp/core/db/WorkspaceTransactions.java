package dev.lnp.core.db;

import dev.lnp.api.PluginContext;
import dev.lnp.api.WorkspaceTx;
import dev.lnp.api.events.EventPublisher;
import dev.lnp.api.events.StatementEvent;
import dev.lnp.core.auth.AdmissionCheck;
import dev.lnp.core.events.OutboxPublisher;
import dev.lnp.core.events.OutboxWakes;
import dev.lnp.core.plugins.PluginRegistry;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Runs work in one transaction bound to one workspace: the transaction's opening statement switches to the tenant
 * role and sets the workspace that row-level security policies compare against ({@link TransactionOpening}), sent
 * before any work.
 */
public final class WorkspaceTransactions implements dev.lnp.api.internal.db.Transactions {

    private static final ThreadLocal<WorkspaceTx> CURRENT = new ThreadLocal<>();

    private final Jdbi jdbi;
    private final PluginRegistry registry;
    private final int maxEventPayloadBytes;
    private final OutboxWakes wakes;

    public WorkspaceTransactions(Jdbi jdbi, PluginRegistry registry) {
        this(jdbi, registry, OutboxPublisher.DEFAULT_MAX_PAYLOAD_BYTES);
    }

    /** @param maxEventPayloadBytes the largest event payload a plugin may publish (webhook bodies stay bounded) */
    public WorkspaceTransactions(Jdbi jdbi, PluginRegistry registry, int maxEventPayloadBytes) {
        this(jdbi, registry, maxEventPayloadBytes, OutboxWakes.none());
    }

    /** @param wakes told after each commit of a transaction that wrote events, to wake the webhook dispatchers */
    public WorkspaceTransactions(Jdbi jdbi, PluginRegistry registry, int maxEventPayloadBytes, OutboxWakes wakes) {
        this.jdbi = jdbi;
        this.registry = registry;
        this.maxEventPayloadBytes = maxEventPayloadBytes;
        this.wakes = wakes;
    }

    /**
     * The workspace transaction running on this thread, if any: services that take no transaction argument
     * (the {@link dev.lnp.api.mail.Mailer}) join it, so what they write commits or rolls back with the caller's change.
     */
    public static java.util.Optional<WorkspaceTx> current() {
        return java.util.Optional.ofNullable(CURRENT.get());
    }

    @Override
    public java.util.Optional<WorkspaceTx> onThisThread() {
        return current();
    }

    /** Work of the platform's own in a workspace. */
    public <R> R inWorkspace(UUID workspaceId, PluginContext.WorkspaceWork<R> work) {
        return run(workspaceId, null, () -> { }, work);
    }

    /**
     * A request's or a tool call's transaction: the driver begins it, the opening statement sets the workspace and
     * the tenant role before the work runs, and it commits when the work returns. {@code check} is the caller's
     * cached admission to check, or null when the database admitted it: the opening statement then also reads the
     * workspace's admission version. When that changed, the transaction rolls back before any work ran and this
     * returns false: the caller is to be admitted again from the database.
     */
    public boolean inWorkspaceIfAdmitted(UUID workspaceId, AdmissionCheck check,
            PluginContext.WorkspaceWork<?> work) {
        boolean[] admitted = {true};
        run(workspaceId, check, () -> admitted[0] = false, work);
        return admitted[0];
    }

    /** The transaction; with a stale {@code check}, rolled back before the work, {@code stale} told, null returned. */
    private <R> R run(UUID workspaceId, AdmissionCheck check, Runnable stale, PluginContext.WorkspaceWork<R> work) {
        OutboxPublisher[] publisher = new OutboxPublisher[1];
        R result = jdbi.inTransaction(handle -> {
            long version = TransactionOpening.send(handle.getConnection(), workspaceId, check);
            if (check != null && !check.current(version)) {
                handle.rollback();
                stale.run();
                return null;
            }
            WorkspaceTx outer = CURRENT.get();
            publisher[0] = new OutboxPublisher(handle, workspaceId, registry, maxEventPayloadBytes);
            var tx = new Tx(workspaceId, handle, publisher[0]);
            CURRENT.set(tx);
            try {
                return work.run(tx);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new WorkFailed(e);
            } finally {
                if (outer == null) {
                    CURRENT.remove();
                } else {
                    CURRENT.set(outer);
                }
            }
        });
        // Committed: only now may the dispatchers look for the events.
        if (publisher[0] != null && publisher[0].wrote()) {
            wakes.committed();
        }
        return result;
    }

    /**
     * A transaction that belongs to no workspace, as the tenant role: tables with workspace row-level security
     * show and accept nothing ({@code current_workspace()} is null), a plugin's workspace-less tables are usable.
     */
    public <R> R outsideWorkspace(PluginContext.WorkspaceWork<R> work) {
        return jdbi.inTransaction(handle -> {
            TransactionOpening.send(handle.getConnection(), null, null);
            EventPublisher none = new EventPublisher() {
                @Override
                public void publish(String eventName, Object data) {
                    throw outsideWorkspace();
                }

                @Override
                public StatementEvent inStatement(String eventName) {
                    throw outsideWorkspace();
                }
            };
            try {
                return work.run(new Tx(null, handle, none));
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new WorkFailed(e);
            }
        });
    }

    private static IllegalStateException outsideWorkspace() {
        return new IllegalStateException("events belong to a workspace: publish them inside inWorkspace");
    }

    /** A transaction as the platform's own user (no tenant role, no workspace): see PluginContext#acrossWorkspaces. */
    public <R> R acrossWorkspaces(java.util.function.Function<Handle, R> work) {
        return jdbi.inTransaction(work::apply);
    }

    private record Tx(UUID workspaceId, Handle handle, EventPublisher events) implements WorkspaceTx {
        @Override
        public boolean isUser(UUID userId) {
            return userId != null && handle.createQuery(
                            "SELECT EXISTS (SELECT 1 FROM lnp_core.users WHERE workspace_id = :ws AND id = :id)")
                    .bind("ws", workspaceId).bind("id", userId).mapTo(Boolean.class).one();
        }
    }

    /** Carries a checked exception out of the transaction callback; unwrapped by the caller. */
    public static final class WorkFailed extends RuntimeException {
        WorkFailed(Exception cause) {
            super(cause);
        }
    }
}
