package dev.lnp.core.db;

import dev.lnp.api.PluginContext;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.events.EventPublisher;
import dev.lnp.api.events.StatementEvent;
import dev.lnp.core.events.OutboxPublisher;
import dev.lnp.database.OutboxWakes;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.database.SqlStates;
import dev.lnp.database.opening.TransactionOpening;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Runs work in one transaction bound to one workspace: the transaction's opening statement switches to the tenant
 * role and sets the workspace that row-level security policies compare against ({@link TransactionOpening}). A
 * call's opening travels with its first statement, in one round trip ({@link TransactionOpening}), unless the
 * call writes and has a cached admission to check.
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

    /** @param maxEventPayloadBytes the largest event payload a plugin may publish (what reads events gets bounded bodies) */
    public WorkspaceTransactions(Jdbi jdbi, PluginRegistry registry, int maxEventPayloadBytes) {
        this(jdbi, registry, maxEventPayloadBytes, OutboxWakes.none());
    }

    /** @param wakes told after each commit of a transaction that wrote events, to wake whatever listens for events */
    public WorkspaceTransactions(Jdbi jdbi, PluginRegistry registry, int maxEventPayloadBytes, OutboxWakes wakes) {
        this.jdbi = jdbi;
        this.registry = registry;
        this.maxEventPayloadBytes = maxEventPayloadBytes;
        this.wakes = wakes;
        jdbi.installPlugin(TransactionOpening.PLUGIN);
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

    /** Work of the platform's own in a workspace: the opening statement is sent before the work runs. */
    public <R> R inWorkspace(UUID workspaceId, PluginContext.WorkspaceWork<R> work) {
        return run(workspaceId, new TransactionOpening(workspaceId, null), false, () -> { }, work);
    }

    /**
     * A request's or a tool call's transaction, which commits when the work returns. {@code check} is the caller's
     * cached admission to check, or null when the database admitted it: the opening statement then also reads the
     * workspace's admission version. When that changed, the transaction rolls back and this returns false: the
     * caller is to be admitted again from the database.
     *
     * <p>The opening is sent with the work's first statement, in one round trip ({@link TransactionOpening}), unless
     * the call writes ({@code read} false) and has an admission to check: a write's check comes before any of its
     * work. A read's check comes with its first statement's result, before any of it is used, and again before the
     * commit if the work caught the exception; what the work did before is rolled back with the transaction.
     *
     * <p>A read runs in autocommit, each statement with the opening and read-only: it sends no commit. A read that
     * writes fails with SQLSTATE {@value TransactionOpening#READ_ONLY_VIOLATION}, having written nothing, and is to
     * run again as a write ({@link #readWrote}).
     *
     * @param read whether the call only reads (a GET, a read-only tool)
     */
    public boolean inWorkspaceIfAdmitted(UUID workspaceId, AdmissionCheck check, boolean read,
            PluginContext.WorkspaceWork<?> work) {
        TransactionOpening opening = read ? TransactionOpening.forRead(workspaceId, check)
                : new TransactionOpening(workspaceId, check);
        boolean[] admitted = {true};
        run(workspaceId, opening, read || check == null, () -> admitted[0] = false, work);
        return admitted[0];
    }

    /** Whether {@code failure} is a read's refused write: running the call again as a write is then safe. */
    public static boolean readWrote(Throwable failure) {
        return SqlStates.find(failure, TransactionOpening.READ_ONLY_VIOLATION::equals) != null;
    }

    /**
     * The transaction, its opening sent alone first or, with {@code defer}, with the work's first statement; when
     * the opening finds its cached admission stale, the transaction has rolled back, {@code stale} is told and this
     * returns null.
     */
    private <R> R run(UUID workspaceId, TransactionOpening opening, boolean defer, Runnable stale,
            PluginContext.WorkspaceWork<R> work) {
        OutboxPublisher[] publisher = new OutboxPublisher[1];
        if (defer) {
            opening.waitForFirstStatement();
        }
        R result;
        try {
            result = jdbi.inTransaction(handle -> {
                boolean deferred = defer && opening.waitsOn(handle.getConnection());
                // A connection the work opens itself is not this transaction's.
                opening.stopWaiting();
                if (!deferred) {
                    // The platform's work, a write to check, or a handle Jdbi reused: the opening before any work.
                    opening.sendAlone(handle.getConnection());
                }
                WorkspaceTx outer = CURRENT.get();
                publisher[0] = new OutboxPublisher(handle, workspaceId, registry, maxEventPayloadBytes);
                var tx = new Tx(workspaceId, handle, publisher[0]);
                CURRENT.set(tx);
                try {
                    R done = work.run(tx);
                    if (deferred) {
                        opening.settle();
                    }
                    return done;
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
        } catch (RuntimeException e) {
            if (!opening.foundStale()) {
                throw e;
            }
            // Whatever the work made of the refusal (caught it, failed otherwise), the caller is admitted again.
            stale.run();
            return null;
        } finally {
            opening.stopWaiting();
        }
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
            new TransactionOpening(null, null).sendAlone(handle.getConnection());
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
