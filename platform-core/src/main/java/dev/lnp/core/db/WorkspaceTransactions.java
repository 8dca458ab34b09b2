package dev.lnp.core.db;

import dev.lnp.api.PluginContext;
import dev.lnp.api.WorkspaceTx;
import dev.lnp.api.events.EventPublisher;
import dev.lnp.api.events.StatementEvent;
import dev.lnp.core.auth.AdmissionCheck;
import dev.lnp.core.auth.KeyRepository;
import dev.lnp.core.events.OutboxPublisher;
import dev.lnp.core.events.OutboxWakes;
import dev.lnp.core.plugins.PluginRegistry;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * Runs work in one transaction bound to one workspace: the transaction switches to the tenant role and sets
 * the workspace that row-level security policies compare against, in a single round trip.
 */
public final class WorkspaceTransactions {

    private static final ThreadLocal<WorkspaceTx> CURRENT = new ThreadLocal<>();

    /**
     * The statement that opens every workspace transaction: the workspace for row-level security, then the tenant
     * role. Sent through plain JDBC rather than a Jdbi query: it runs on every request, and Jdbi's per-statement
     * machinery (context, argument and mapper look-ups, cleanables) cost more than the statement's own client work.
     */
    private static final String SET_WORKSPACE = "SELECT set_config('lnp.workspace_id', ?, true), "
            + "set_config('role', '" + Migrations.TENANT_ROLE + "', true)";
    /**
     * {@link #SET_WORKSPACE} for a caller admitted from the node's cache, with its workspace's admission version
     * first: read as the platform's user, since privileges are checked when the statement starts, before the role
     * changes.
     */
    private static final String CHECK_AND_SET_WORKSPACE = "SELECT "
            + KeyRepository.ADMISSION_VERSION.replace(":workspace", "?::uuid") + ", "
            + "set_config('lnp.workspace_id', ?, true), set_config('role', '" + Migrations.TENANT_ROLE + "', true)";

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

    public <R> R inWorkspace(UUID workspaceId, PluginContext.WorkspaceWork<R> work) {
        return inWorkspace(workspaceId, null, work);
    }

    /**
     * {@link #inWorkspace(UUID, PluginContext.WorkspaceWork)} for a caller admitted from the node's cache: the
     * statement that sets the workspace also reads the workspace's admission version (as the platform's user:
     * privileges are checked when the statement starts, before the role changes), and the transaction rolls back
     * with {@link AdmissionCheck.Stale} before any work when it changed. Null checks nothing.
     */
    public <R> R inWorkspace(UUID workspaceId, AdmissionCheck check, PluginContext.WorkspaceWork<R> work) {
        OutboxPublisher[] publisher = new OutboxPublisher[1];
        R result = jdbi.inTransaction(handle -> {
            if (check == null) {
                firstStatement(handle, SET_WORKSPACE, false, workspaceId.toString());
            } else {
                check.verify(firstStatement(handle, CHECK_AND_SET_WORKSPACE, true, workspaceId.toString()));
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
            firstStatement(handle, SET_WORKSPACE, false, "");
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

    /**
     * Runs one of the statements above on the transaction's connection and returns its first column as a number:
     * the workspace's admission version for {@link #CHECK_AND_SET_WORKSPACE}.
     *
     * @param checked whether {@code sql} is {@link #CHECK_AND_SET_WORKSPACE}, which binds the workspace twice
     */
    private static long firstStatement(Handle handle, String sql, boolean checked, String workspace) {
        try (PreparedStatement statement = handle.getConnection().prepareStatement(sql)) {
            statement.setString(1, workspace);
            if (checked) {
                statement.setString(2, workspace);
            }
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return checked ? row.getLong(1) : 0;
            }
        } catch (SQLException e) {
            // Jdbi's exception, as a Jdbi statement would have thrown: callers and the outage detection (which
            // reads the SQLSTATE of the cause) treat it alike.
            throw new UnableToExecuteStatementException(e, null);
        }
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
