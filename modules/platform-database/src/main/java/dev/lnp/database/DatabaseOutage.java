package dev.lnp.database;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Remembers that the database was found unreachable, so that requests answer 503 at once instead of each waiting
 * for the pool's connection timeout (5 s); a probe every half second notices the database's return and lifts it.
 * Reported by the first request that fails for want of the database, or by the pool failing to open a connection;
 * requests already waiting for a pooled connection then stop waiting and answer 503 too ({@link ConnectionWaits}).
 */
public final class DatabaseOutage implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(DatabaseOutage.class.getName());
    private static final long PROBE_MILLIS = 500;

    private final Database database;
    private final AtomicBoolean down = new AtomicBoolean();
    private final AtomicBoolean confirming = new AtomicBoolean();
    private volatile boolean closed;

    public DatabaseOutage(Database database) {
        this.database = database;
        database.onUnreachable(this::reportUnreachable);
    }

    /** True while the database is known to be unreachable. */
    public boolean isDown() {
        return down.get();
    }

    /**
     * Called when a request failed for want of the database: confirms it outside the pool, then starts probing for
     * its return (once). A request that waited out the pool's timeout while every connection ran a slow statement
     * fails the same way as one whose database is gone; only a connection of its own tells them apart, and a busy
     * pool must not turn every other request away (seen in the benchmark: 16 counts of 5 s each took the database
     * for gone and answered 503 to everything for 11.6 s).
     */
    public void reportUnreachable() {
        if (closed || down.get() || !confirming.compareAndSet(false, true)) {
            return;
        }
        try {
            if (database.answersOutsideThePool()) {
                LOG.log(Level.WARNING, "No pooled connection came free within the pool's timeout, but the database "
                        + "answers: the pool is saturated (slow statements, or lnp.database.pool.size too small for "
                        + "the load), not an outage");
                return;
            }
            declareDown();
        } finally {
            confirming.set(false);
        }
    }

    private void declareDown() {
        if (!closed && down.compareAndSet(false, true)) {
            database.endRequestWaits();
            LOG.log(Level.WARNING, "The database is unreachable; requests answer 503 until it is back");
            Thread.ofVirtual().name("lnp-database-outage-probe").start(this::probeUntilBack);
        }
    }

    private void probeUntilBack() {
        long started = System.nanoTime();
        while (!closed && !database.isClosed()) {
            try {
                Thread.sleep(PROBE_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            if (database.isReachable()) {
                database.admitRequestWaits();
                down.set(false);
                LOG.log(Level.INFO, "The database is reachable again after {0} ms",
                        (System.nanoTime() - started) / 1_000_000);
                return;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
