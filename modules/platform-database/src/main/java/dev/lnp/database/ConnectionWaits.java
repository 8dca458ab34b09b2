package dev.lnp.database;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The pool as requests see it: a request waiting for a pooled connection when the database is found unreachable
 * does not sit out the pool's connection timeout (5 s), its wait is ended at once and it answers 503; while the
 * database is known to be unreachable a request asking for a connection is refused without waiting.
 *
 * <p>Only a thread inside {@link #cutShortOnOutage()} (a request's handler) is cut short, by an interrupt sent while
 * it waits in the pool and only then: background work (a subsystem's, the outbox listener, maintenance) keeps the
 * pool's own timeout and never sees an interrupt it did not expect.
 */
final class ConnectionWaits implements DataSource {

    private static final ThreadLocal<Boolean> CUT_SHORT = ThreadLocal.withInitial(() -> false);

    private final DataSource pool;
    private final Set<Waiter> waiters = ConcurrentHashMap.newKeySet();
    private volatile boolean unreachable;

    ConnectionWaits(DataSource pool) {
        this.pool = pool;
    }

    /** Marks the current thread's connection waits as ones an outage may end, until the returned scope closes. */
    static Database.WaitScope cutShortOnOutage() {
        boolean outer = CUT_SHORT.get();
        CUT_SHORT.set(true);
        return () -> CUT_SHORT.set(outer);
    }

    /** The database is unreachable: ends every request's wait now and refuses new ones until {@link #reachable}. */
    void unreachable() {
        unreachable = true;
        for (Waiter waiter : waiters) {
            waiter.abandon();
        }
    }

    void reachable() {
        unreachable = false;
    }

    /** How many requests wait for a connection right now. */
    int waiting() {
        return waiters.size();
    }

    @Override
    public Connection getConnection() throws SQLException {
        if (!CUT_SHORT.get()) {
            return pool.getConnection();
        }
        if (unreachable) {
            throw refused();
        }
        Waiter waiter = new Waiter(Thread.currentThread());
        waiters.add(waiter);
        Connection connection = null;
        SQLException failure = null;
        try {
            connection = pool.getConnection();
        } catch (SQLException e) {
            failure = e;
        } finally {
            waiters.remove(waiter);
        }
        if (waiter.finish()) {
            // Abandoned by the outage: the interrupt was ours, so it is taken back, and any connection the pool
            // handed over at the last moment goes back to it.
            Thread.interrupted();
            if (connection != null) {
                connection.close();
            }
            SQLException refused = refused();
            if (failure != null) {
                refused.addSuppressed(failure);
            }
            throw refused;
        }
        if (failure != null) {
            throw failure;
        }
        return connection;
    }

    private static SQLException refused() {
        return new SQLTransientConnectionException("The database is unreachable; the wait for a connection was ended.",
                "08006");
    }

    /** One thread in the pool's wait; {@code abandon} and {@code finish} are serialised so no interrupt leaks. */
    private static final class Waiter {
        private final Thread thread;
        private boolean finished;
        private boolean abandoned;

        Waiter(Thread thread) {
            this.thread = thread;
        }

        synchronized void abandon() {
            if (!finished && !abandoned) {
                abandoned = true;
                thread.interrupt();
            }
        }

        /** Ends the wait; true when the outage abandoned it (and interrupted the thread). */
        synchronized boolean finish() {
            finished = true;
            return abandoned;
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the pool's credentials are configured once");
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return pool.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        pool.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        pool.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return pool.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return pool.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return type.isInstance(this) ? type.cast(this) : pool.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || pool.isWrapperFor(type);
    }
}
