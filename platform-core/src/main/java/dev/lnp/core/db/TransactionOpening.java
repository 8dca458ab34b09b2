package dev.lnp.core.db;

import dev.lnp.core.auth.AdmissionCheck;
import dev.lnp.core.auth.KeyRepository;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * The statement that opens a workspace transaction, sent on its own before any work: the workspace for row-level
 * security, the tenant role and, for a caller admitted from the node's cache, its workspace's admission version
 * ({@link AdmissionCheck}), read as the platform's user (privileges are checked when the statement starts, before
 * the role changes). The driver sends the transaction's {@code BEGIN} with it, in one round trip.
 */
final class TransactionOpening {

    /**
     * Sent through plain JDBC rather than a Jdbi query: it runs on every request, and Jdbi's per-statement
     * machinery (context, argument and mapper look-ups, cleanables) cost more than the statement's own client work.
     */
    private static final String SET_WORKSPACE = "SELECT set_config('lnp.workspace_id', ?, true), "
            + "set_config('role', '" + Migrations.TENANT_ROLE + "', true)";
    private static final String READ_VERSION_AND_SET_WORKSPACE = "SELECT "
            + KeyRepository.ADMISSION_VERSION.replace(":workspace", "?::uuid") + ", "
            + "set_config('lnp.workspace_id', ?, true), set_config('role', '" + Migrations.TENANT_ROLE + "', true)";

    private TransactionOpening() {
    }

    /**
     * Opens the transaction on {@code connection} (out of autocommit): sets {@code workspaceId} (null: none,
     * {@code current_workspace()} is null) and the tenant role. With a {@code check}, returns the workspace's
     * admission version read by the same statement; else 0.
     */
    static long send(Connection connection, UUID workspaceId, AdmissionCheck check) {
        String workspace = workspaceId == null ? "" : workspaceId.toString();
        try (PreparedStatement statement = connection.prepareStatement(
                check == null ? SET_WORKSPACE : READ_VERSION_AND_SET_WORKSPACE)) {
            statement.setString(1, workspace);
            if (check == null) {
                statement.execute();
                return 0;
            }
            statement.setString(2, workspace);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        } catch (SQLException e) {
            // Jdbi's exception, as a Jdbi statement would have thrown: callers and the outage detection (which
            // reads the SQLSTATE of the cause) treat it alike.
            throw new UnableToExecuteStatementException(e, null);
        }
    }
}
