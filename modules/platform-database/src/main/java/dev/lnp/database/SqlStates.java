package dev.lnp.database;

import java.sql.SQLException;
import java.util.function.Predicate;

/**
 * The SQLSTATE a failure carries. Jdbi, HikariCP and the pipeline wrap PostgreSQL's {@link SQLException} in
 * their own exceptions, so the state is looked for along the whole chain of causes.
 */
public final class SqlStates {

    private SqlStates() {
    }

    /** The first SQLSTATE in {@code failure}'s chain of causes that {@code wanted} accepts, or null. */
    public static String find(Throwable failure, Predicate<String> wanted) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null && wanted.test(sql.getSQLState())) {
                return sql.getSQLState();
            }
        }
        return null;
    }

    /** Whether a {@link java.sql.SQLTransientConnectionException} (a pool that could not hand one out) is among the causes. */
    static boolean noConnectionHandedOut(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLTransientConnectionException) {
                return true;
            }
        }
        return false;
    }
}
