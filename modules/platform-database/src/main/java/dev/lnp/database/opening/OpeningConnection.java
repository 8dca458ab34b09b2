package dev.lnp.database.opening;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;
import org.postgresql.PGConnection;

/**
 * A transaction's connection while its {@link TransactionOpening} waits: the next statement prepared on it
 * (forward-only, read-only, no generated keys: what a Jdbi query or update prepares) carries the opening
 * ({@link JoinedStatement}); every other use that could reach the database sends the opening alone first. Calls
 * that send nothing, or only manage the transaction, pass straight through, except for a read in autocommit:
 * there the transaction Jdbi begins and ends is only pretended ({@link TransactionOpening#inAutocommit}).
 */
final class OpeningConnection implements InvocationHandler {

    /**
     * What may run before the opening: nothing here reads or writes data. A commit or rollback with the opening
     * unsent ends a transaction the server never began ({@link TransactionOpening#settle} checks a cached
     * admission before the commit).
     */
    private static final Set<String> BEFORE_THE_OPENING = Set.of("setAutoCommit", "getAutoCommit", "commit",
            "rollback", "close", "isClosed", "getTransactionIsolation", "setTransactionIsolation", "isReadOnly",
            "setReadOnly", "getWarnings", "clearWarnings", "getHoldability", "createArrayOf", "getTypeMap",
            "getNetworkTimeout", "toString", "hashCode", "equals");

    private final Connection real;
    private final TransactionOpening opening;
    /** The autocommit Jdbi set, while the connection itself stays in autocommit for a read. */
    private boolean autoCommitShown = true;

    OpeningConnection(Connection real, TransactionOpening opening) {
        this.real = real;
        this.opening = opening;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (opening.rides()) {
            String name = method.getName();
            if (opening.inAutocommit()) {
                switch (name) {
                    case "getAutoCommit":
                        return autoCommitShown;
                    case "setAutoCommit":
                        autoCommitShown = (Boolean) args[0];
                        return null;
                    case "commit", "rollback":
                        if (args == null) {
                            return null;
                        }
                        break;
                    case "setTransactionIsolation":
                        // Above read committed, the statements share one snapshot: a transaction, at that level.
                        real.setTransactionIsolation((Integer) args[0]);
                        if ((Integer) args[0] > Connection.TRANSACTION_READ_COMMITTED) {
                            opening.sendIfPending();
                        }
                        return null;
                    default:
                        break;
                }
            }
            if (name.equals("prepareStatement") && joinable(args) && !forcesBinary()) {
                int type = args.length == 3 ? (Integer) args[1] : ResultSet.TYPE_FORWARD_ONLY;
                int concurrency = args.length == 3 ? (Integer) args[2] : ResultSet.CONCUR_READ_ONLY;
                return Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                        new Class<?>[] {PreparedStatement.class},
                        new JoinedStatement((Connection) proxy, real, opening, (String) args[0], type, concurrency));
            }
            if (!BEFORE_THE_OPENING.contains(name)) {
                opening.sendIfPending();
            }
        }
        return invokeOn(real, method, args);
    }

    /** {@code prepareStatement(sql)} or {@code prepareStatement(sql, forward-only, read-only)}. */
    private static boolean joinable(Object[] args) {
        return args.length == 1
                || args.length == 3 && (Integer) args[1] == ResultSet.TYPE_FORWARD_ONLY
                        && (Integer) args[2] == ResultSet.CONCUR_READ_ONLY;
    }

    /**
     * Whether the driver prepares this connection's statements from their first run, with binary results (a
     * negative {@code prepareThreshold}, set for the URL or on the connection): it then describes a statement
     * before its first run, and pgjdbc 42.7 gives a multi-statement text's row descriptions to the wrong part
     * (08P01 "bind message has 25 result formats but query has 3 columns"). The opening then goes alone.
     */
    private boolean forcesBinary() throws SQLException {
        return real.unwrap(PGConnection.class).getPrepareThreshold() < 0;
    }

    /** Calls {@code method} on {@code target}, throwing what it threw. */
    static Object invokeOn(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
