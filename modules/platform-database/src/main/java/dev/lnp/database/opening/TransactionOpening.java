package dev.lnp.database.opening;

import dev.lnp.database.migrations.Migrations;
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
 * a caller admitted from the node's cache, its workspace's admission version ({@link AdmissionVersionCheck}). The
 * kernel's workspace transactions (the pipeline's {@code transaction} step) decide how it is sent.
 *
 * <p>A write with a cached admission sends it on its own before any work ({@link #sendAlone}): its check then comes
 * before anything the work does. Any other call leaves it for its first statement ({@link #waitForFirstStatement}),
 * which saves a round trip on every page: the transaction's connection is then an {@link OpeningConnection}, and
 * the first statement prepared on it travels as one multi-statement text after this one ({@link JoinedStatement}).
 * This is done by wrapping the connection rather than by asking handlers to cooperate because the connection is the
 * one thing every statement passes through: nothing reaches the database before this statement, whatever the work
 * does ({@code tx.handle().getConnection()}, a plain statement, a batch, a savepoint, the driver's own API each
 * send it alone first), and a call that ran no statement sends it only when it has an admission to check
 * ({@link #settle}).
 *
 * <p>A read ({@link #forRead}) has no commit to send either: its connection stays in autocommit, and every
 * statement carries the opening, read-only, as one implicit transaction that ends with the statement's own
 * round trip. The read's statements then see what was committed when each began, as they would in a
 * read-committed transaction, and none can write ({@code 25006}, kept for {@link #settle}, runs the call again
 * as a write). Any other use of the connection turns it into a transaction first, which then commits as usual.
 */
public final class TransactionOpening {

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
            + AdmissionVersionCheck.VERSION.replace(":workspace", "?::uuid") + ", "
            + "set_config('lnp.workspace_id', ?, true), set_config('role', '" + Migrations.TENANT_ROLE + "', true)";
    private static final String SET_WORKSPACE_FIRST = SET_WORKSPACE + ";\n";
    private static final String CHECK_AND_SET_WORKSPACE_FIRST = CHECK_AND_SET_WORKSPACE + ";\n";
    /** Before each statement of a read in autocommit: the statement's implicit transaction cannot write. */
    private static final String READ_ONLY = ", set_config('transaction_read_only', 'on', true);\n";
    private static final String SET_WORKSPACE_READ = SET_WORKSPACE + READ_ONLY;
    private static final String CHECK_AND_SET_WORKSPACE_READ = CHECK_AND_SET_WORKSPACE + READ_ONLY;
    /** SQLSTATE of a write in a read-only transaction. */
    public static final String READ_ONLY_VIOLATION = "25006";

    /** The opening the next connection Jdbi opens on this thread waits for ({@link #PLUGIN}). */
    private static final ThreadLocal<TransactionOpening> NEXT = new ThreadLocal<>();

    /** Hands a deferred opening the connection Jdbi opens for its transaction. */
    public static final JdbiPlugin PLUGIN = new JdbiPlugin() {
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
    private final AdmissionVersionCheck check;
    private boolean read;
    private Connection connection;
    private Connection attached;
    /** A read whose connection turned into a transaction: the opening was sent alone at the start of it. */
    private boolean transaction;
    private boolean sent;
    private boolean checked;
    private AdmissionVersionCheck.Stale stale;
    private SQLException wrote;

    private TransactionOpening(UUID workspaceId, AdmissionVersionCheck check, boolean read) {
        this.workspace = workspaceId == null ? "" : workspaceId.toString();
        this.check = check;
        this.read = read;
    }

    /**
     * The opening of a transaction that may write.
     *
     * @param workspaceId the transaction's workspace; null for none ({@code current_workspace()} is null)
     * @param check       the cached admission to check, or null
     */
    public TransactionOpening(UUID workspaceId, AdmissionVersionCheck check) {
        this(workspaceId, check, false);
    }

    /** The opening of a read: in autocommit, with every statement, once it waits for the first one. */
    public static TransactionOpening forRead(UUID workspaceId, AdmissionVersionCheck check) {
        return new TransactionOpening(workspaceId, check, true);
    }

    /** Sends the opening now, on its own, on the transaction's connection; a stale admission throws. */
    public void sendAlone(Connection on) {
        connection = on;
        sendAlone();
    }

    /**
     * Makes the next connection Jdbi opens on this thread wait for its first statement to carry this opening.
     * Call {@link #stopWaiting} when the transaction ends: Jdbi may reuse a handle instead of opening one.
     */
    public void waitForFirstStatement() {
        NEXT.set(this);
    }

    public void stopWaiting() {
        if (NEXT.get() == this) {
            NEXT.remove();
        }
    }

    /** Whether {@code handleConnection} is the connection this opening waits on (else it must be sent alone). */
    public boolean waitsOn(Connection handleConnection) {
        return attached != null && attached == handleConnection;
    }

    private Connection attach(Connection real) {
        connection = real;
        try {
            // The pool hands out connections in autocommit; should one come otherwise, the read is a transaction.
            read = read && real.getAutoCommit();
        } catch (SQLException e) {
            throw new UnableToExecuteStatementException(e, null);
        }
        attached = (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, new OpeningConnection(real, this));
        return attached;
    }

    /** Whether the next statement must carry the opening: until it is sent, or, for a read, while in autocommit. */
    boolean rides() {
        return read ? !transaction : !sent;
    }

    /** A read whose connection stays in autocommit: the transaction's begin and end send nothing. */
    boolean inAutocommit() {
        return read && !transaction;
    }

    /**
     * At the end of the work, before the commit: a cached admission that no statement checked is checked now;
     * one a statement found stale fails the transaction even if the work caught the exception, and so does a
     * read's write refused in autocommit ({@link #READ_ONLY_VIOLATION}), so that the call runs again as a write.
     */
    public void settle() {
        if (stale != null) {
            throw stale;
        }
        if (wrote != null) {
            throw new UnableToExecuteStatementException(wrote, null);
        }
        if (!checked && check != null) {
            sendAlone();
        }
    }

    /** {@code statementSql} after the opening, as one multi-statement text (one round trip). */
    String joinedSql(String statementSql) {
        if (inAutocommit()) {
            return (check == null ? SET_WORKSPACE_READ : CHECK_AND_SET_WORKSPACE_READ) + statementSql;
        }
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

    /**
     * Marks the opening sent with a joined statement, before it runs: a failed one aborts the transaction. A read
     * in autocommit sends it again with its next statement.
     */
    void sending() {
        checked = true;
        if (!inAutocommit()) {
            sent = true;
        }
    }

    /** A joined statement failed: a read's write is kept for {@link #settle}, even if the work catches it. */
    void failed(SQLException failure) {
        if (inAutocommit() && READ_ONLY_VIOLATION.equals(failure.getSQLState())) {
            wrote = failure;
        }
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
        } catch (AdmissionVersionCheck.Stale e) {
            stale = e;
            throw e;
        }
    }

    /** Whether this opening found its cached admission stale: the transaction rolled back, to be admitted again. */
    public boolean foundStale() {
        return stale != null;
    }

    /**
     * Sends the opening alone, if not sent yet, before the connection is used otherwise. A read in autocommit
     * turns its connection into a transaction first: what follows may rely on the opening's settings.
     */
    void sendIfPending() {
        if (inAutocommit()) {
            transaction = true;
            sent = false;
            try {
                connection.setAutoCommit(false);
            } catch (SQLException e) {
                throw new UnableToExecuteStatementException(e, null);
            }
        }
        if (!sent) {
            sendAlone();
        }
    }

    private void sendAlone() {
        sent = true;
        checked = true;
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
