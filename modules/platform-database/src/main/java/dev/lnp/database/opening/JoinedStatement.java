package dev.lnp.database.opening;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A statement prepared while the {@link TransactionOpening} waits, which carries it: nothing is prepared until it
 * runs. Its parameters and settings are kept until then. Executed ({@code execute}, {@code executeQuery},
 * {@code executeUpdate}) while the opening still waits, it is prepared as the opening's text followed by its own,
 * with its parameters moved after the opening's, and runs in one round trip: the opening's result is read and
 * checked, then the statement's own result is the current one, as if it had run alone. So it stays: run again,
 * it carries the opening again, and later parameters move too. Any other use first (a batch, its metadata) sends
 * the opening alone and prepares the statement as written.
 */
final class JoinedStatement implements InvocationHandler {

    private static final Set<String> EXECUTIONS = Set.of("execute", "executeQuery", "executeUpdate",
            "executeLargeUpdate");

    /** A setter called before the statement was prepared, replayed on it. */
    private record Call(Method method, Object[] args) {
    }

    private final Connection proxyConnection;
    private final Connection real;
    private final TransactionOpening opening;
    private final String sql;
    private final int type;
    private final int concurrency;
    private final List<Call> calls = new ArrayList<>(8);
    private PreparedStatement statement;
    /** Parameters of the opening before the statement's own, once prepared joined; else 0. */
    private int offset;
    private boolean closed;

    JoinedStatement(Connection proxyConnection, Connection real, TransactionOpening opening, String sql, int type,
            int concurrency) {
        this.proxyConnection = proxyConnection;
        this.real = real;
        this.opening = opening;
        this.sql = sql;
        this.type = type;
        this.concurrency = concurrency;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        switch (name) {
            case "hashCode":
                return System.identityHashCode(proxy);
            case "equals":
                return proxy == args[0];
            case "toString":
                return statement != null ? statement.toString() : sql;
            case "getConnection":
                return proxyConnection;
            default:
                break;
        }
        if (statement != null) {
            return offset == 0 ? OpeningConnection.invokeOn(statement, method, args) : onJoined(name, method, args);
        }
        switch (name) {
            case "close":
                closed = true;
                return null;
            case "isClosed":
                return closed;
            case "clearParameters":
                calls.removeIf(call -> isParameter(call.method()));
                return null;
            default:
                break;
        }
        if (closed) {
            throw new SQLException("This statement has been closed.", "55000");
        }
        if (name.startsWith("set")) {
            calls.add(new Call(method, args));
            return null;
        }
        if (args == null && EXECUTIONS.contains(name) && opening.rides() && !readsByCursor()) {
            return executeJoined(name);
        }
        opening.sendIfPending();
        statement = real.prepareStatement(sql, type, concurrency);
        replay(0);
        return OpeningConnection.invokeOn(statement, method, args);
    }

    /** A use of the statement once prepared after the opening: its parameters and results come after the opening's. */
    private Object onJoined(String name, Method method, Object[] args) throws Throwable {
        if (args == null && EXECUTIONS.contains(name)) {
            return executeJoined(name);
        }
        if (isParameter(method)) {
            args = args.clone();
            args[0] = (Integer) args[0] + offset;
        } else if (name.equals("clearParameters")) {
            statement.clearParameters();
            opening.bindFirst(statement);
            return null;
        } else if (name.equals("addBatch") || name.equals("getParameterMetaData")) {
            throw new SQLFeatureNotSupportedException("This statement ran with the transaction's opening before it: "
                    + "prepare a new statement for " + name + ".", "0A000");
        }
        return OpeningConnection.invokeOn(statement, method, args);
    }

    private Object executeJoined(String execution) throws Throwable {
        if (statement == null) {
            statement = real.prepareStatement(opening.joinedSql(sql), type, concurrency);
            offset = opening.bindFirst(statement);
            replay(offset);
        }
        opening.sending();
        try {
            statement.execute();
        } catch (SQLException e) {
            opening.failed(e);
            throw e;
        }
        opening.read(statement.getResultSet());
        boolean rows = statement.getMoreResults();
        return switch (execution) {
            case "execute" -> rows;
            case "executeQuery" -> {
                if (!rows) {
                    throw new SQLException("No results were returned by the query.", "02000");
                }
                yield statement.getResultSet();
            }
            case "executeUpdate" -> {
                refuseRows(rows);
                yield statement.getUpdateCount();
            }
            default -> {
                refuseRows(rows);
                yield statement.getLargeUpdateCount();
            }
        };
    }

    private static void refuseRows(boolean rows) throws SQLException {
        if (rows) {
            throw new SQLException("A result was returned when none was expected.", "0100E");
        }
    }

    /**
     * Whether the statement asks for its rows a few at a time ({@code setFetchSize}) in a read in autocommit: the
     * driver reads them through a cursor only in a transaction, so the read turns into one (else every row would
     * be read at once).
     */
    private boolean readsByCursor() {
        if (!opening.inAutocommit()) {
            return false;
        }
        for (Call call : calls) {
            if (call.method().getName().equals("setFetchSize") && (Integer) call.args()[0] > 0) {
                return true;
            }
        }
        return false;
    }

    /** Replays the kept setters, the parameters {@code offset} places later (after the opening's). */
    private void replay(int offset) throws Throwable {
        for (Call call : calls) {
            Object[] args = call.args();
            if (offset > 0 && isParameter(call.method())) {
                args = args.clone();
                args[0] = (Integer) args[0] + offset;
            }
            OpeningConnection.invokeOn(statement, call.method(), args);
        }
        calls.clear();
    }

    /** A parameter's setter ({@code setString(index, …)}), not a statement's setting ({@code setFetchSize}). */
    private static boolean isParameter(Method method) {
        return method.getDeclaringClass() == PreparedStatement.class && method.getName().startsWith("set");
    }
}
