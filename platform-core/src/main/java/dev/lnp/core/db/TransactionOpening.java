package dev.lnp.core.db;

import dev.lnp.core.auth.AdmissionCheck;
import dev.lnp.core.auth.KeyRepository;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import org.jdbi.v3.core.spi.JdbiPlugin;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * The statement that opens a workspace transaction: the workspace for row-level security, the tenant role and, for
 * a caller admitted from the node's cache, its workspace's admission version ({@link AdmissionCheck}).
 *
 * <p>A write with a cached admission sends it on its own before any work ({@link #sendAlone}): its check then comes
 * before anything the work does. Any other call leaves it for its first statement
 * ({@link #waitForFirstStatement}): the transaction's connection is then a {@link OpeningConnection}, and the
 * first statement prepared on it travels as one
 * multi-statement text after this one ({@link JoinedStatement}), so a page costs one round trip fewer. Nothing
 * reaches the database before this statement: any other use of the connection (a plain statement, a batch, a
 * savepoint, the driver's own API) sends it alone first, and a call that ran no statement sends it only when it
 * has an admission to check ({@link #settle}).
 */
final class TransactionOpening {

    /**
     * Sent through plain JDBC rather than a Jdbi query: it runs on every request, and Jdbi's per-statement
     * machinery (context, argument and mapper look-ups, cleanables) cost more than the statement's own client work.
     */
    private static final String SET_WORKSPACE = "SELECT set_config('lnp.workspace_id', ?, true), "
            + "set_config('role', '" + Migrations.TENANT_ROLE + "', true)";
    /**
     * {@link #SET_WORKSPACE} with the workspace's admission version first: read as the platform's user, since
     * privileges are checked when the statement starts, before the role changes.
     */
    private static final String CHECK_AND_SET_WORKSPACE = "SELECT "
            + KeyRepository.ADMISSION_VERSION.replace(":workspace", "?::uuid") + ", "
            + "set_config('lnp.workspace_id', ?, true), set_config('role', '" + Migrations.TENANT_ROLE + "', true)";
    private static final String SET_WORKSPACE_FIRST = SET_WORKSPACE + ";\n";
    private static final String CHECK_AND_SET_WORKSPACE_FIRST = CHECK_AND_SET_WORKSPACE + ";\n";

    /** The opening the next connection Jdbi opens on this thread waits for ({@link #PLUGIN}). */
    private static final ThreadLocal<TransactionOpening> NEXT = new ThreadLocal<>();

    /** Hands a deferred opening the connection Jdbi opens for its transaction. */
    static final JdbiPlugin PLUGIN = new JdbiPlugin() {
        @Override
        public Connection customizeConnection(Connection connection) {
            TransactionOpening opening = NEXT.get();
            if (opening == null) {
                return connection;
            }
            NEXT.remove();
            return opening.attach(connection);
        }
    };

    private final String workspace;
    private final AdmissionCheck check;
    private Connection connection;
    private Connection attached;
    private boolean sent;
    private AdmissionCheck.Stale stale;

    /**
     * @param workspaceId the transaction's workspace; null for none ({@code current_workspace()} is null)
     * @param check       the cached admission to check, or null
     */
    TransactionOpening(UUID workspaceId, AdmissionCheck check) {
        this.workspace = workspaceId == null ? "" : workspaceId.toString();
        this.check = check;
    }

    /** Sends the opening now, on its own, on the transaction's connection; a stale admission throws. */
    void sendAlone(Connection on) {
        connection = on;
        sendAlone();
    }

    /**
     * Makes the next connection Jdbi opens on this thread wait for its first statement to carry this opening.
     * Call {@link #stopWaiting} when the transaction ends: Jdbi may reuse a handle instead of opening one.
     */
    void waitForFirstStatement() {
        NEXT.set(this);
    }

    void stopWaiting() {
        if (NEXT.get() == this) {
            NEXT.remove();
        }
    }

    /** Whether {@code handleConnection} is the connection this opening waits on (else it must be sent alone). */
    boolean waitsOn(Connection handleConnection) {
        return attached != null && attached == handleConnection;
    }

    private Connection attach(Connection real) {
        connection = real;
        attached = (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, new OpeningConnection(real, this));
        return attached;
    }

    boolean pending() {
        return !sent;
    }

    /**
     * At the end of a read's work, before the commit: a cached admission that no statement checked is checked now;
     * one a statement found stale fails the transaction even if the work caught the exception.
     */
    void settle() {
        if (stale != null) {
            throw stale;
        }
        if (!sent && check != null) {
            sendAlone();
        }
    }

    /** {@code statementSql} after the opening, as one multi-statement text (one round trip). */
    String joinedSql(String statementSql) {
        return (check == null ? SET_WORKSPACE_FIRST : CHECK_AND_SET_WORKSPACE_FIRST) + statementSql;
    }

    /** Binds the opening's parameters, the first of the joined text; returns how many. */
    int bindFirst(PreparedStatement joinedStatement) throws SQLException {
        joinedStatement.setString(1, workspace);
        if (check == null) {
            return 1;
        }
        joinedStatement.setString(2, workspace);
        return 2;
    }

    /** Marks the opening sent with a joined statement, before it runs: a failed one aborts the transaction. */
    void sending() {
        sent = true;
    }

    /** Reads the opening's own result (the first of a joined statement's) and checks the admission. */
    void read(ResultSet first) throws SQLException {
        if (check != null) {
            first.next();
            verify(first.getLong(1));
        }
    }

    private void verify(long version) {
        try {
            check.verify(version);
        } catch (AdmissionCheck.Stale e) {
            stale = e;
            throw e;
        }
    }

    /** Sends the opening alone, if not sent yet, before the connection is used otherwise. */
    void sendIfPending() {
        if (!sent) {
            sendAlone();
        }
    }

    private void sendAlone() {
        sent = true;
        try (PreparedStatement statement = connection.prepareStatement(
                check == null ? SET_WORKSPACE : CHECK_AND_SET_WORKSPACE)) {
            bindFirst(statement);
            try (ResultSet row = statement.executeQuery()) {
                read(row);
            }
        } catch (SQLException e) {
            // Jdbi's exception, as a Jdbi statement would have thrown: callers and the outage detection (which
            // reads the SQLSTATE of the cause) treat it alike.
            throw new UnableToExecuteStatementException(e, null);
        }
    }
}
