package dev.lnp.database;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jdbi.v3.core.Jdbi;

/**
 * Wakes what listens for events on every node (a subsystem fanning them out) after transactions with events commit:
 * at most one {@code NOTIFY lnp_webhooks} per interval from this node, sent after the commits, instead of one inside
 * every writing transaction (the channel and its setting keep the names they had when webhooks were the kernel's, so
 * nodes of both versions hear each other). A transaction that notifies holds a cluster-wide lock from its commit
 * until its WAL is flushed, so a NOTIFY per write made every write's commit wait for the previous one's flush. A
 * notification is a hint: the listeners also poll, so a lost one costs a poll interval.
 */
public final class OutboxWakes {

    private static final String CHANNEL = dev.lnp.api.internal.events.OutboxWakeSignal.CHANNEL;
    private static final String EVENTS_COMMITTED = dev.lnp.api.internal.events.OutboxWakeSignal.EVENTS_COMMITTED;

    private static final System.Logger LOG = System.getLogger(OutboxWakes.class.getName());
    private static final OutboxWakes NONE = new OutboxWakes(null, 0);

    private final Jdbi jdbi;
    private final long intervalNanos;
    private final AtomicBoolean pending = new AtomicBoolean();
    private volatile long lastSent = System.nanoTime() - Long.MAX_VALUE / 2;

    /** @param intervalMillis the shortest time between two notifications of this node */
    public OutboxWakes(Jdbi jdbi, long intervalMillis) {
        this.jdbi = jdbi;
        this.intervalNanos = intervalMillis * 1_000_000;
    }

    /** Wakes nobody: for transactions whose events no dispatcher needs to hear of at once (tests, tools). */
    public static OutboxWakes none() {
        return NONE;
    }

    /**
     * Events committed. Whoever finds no notification pending schedules one; a commit that finds one pending is
     * covered by it, since the sender clears the flag before it notifies, and so after that commit.
     */
    public void committed() {
        if (jdbi == null || !pending.compareAndSet(false, true)) {
            return;
        }
        Thread.ofVirtual().name("lnp-outbox-wake").start(this::send);
    }

    private void send() {
        try {
            long wait = lastSent + intervalNanos - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        pending.set(false);
        lastSent = System.nanoTime();
        try {
            // Its own short transaction; it need not wait for its flush (nothing but the hint is at stake).
            jdbi.useHandle(h -> h.createQuery(
                            "SELECT set_config('synchronous_commit', 'off', true), pg_notify('" + CHANNEL + "', '"
                                    + EVENTS_COMMITTED + "')")
                    .mapToMap().list());
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "Could not wake the outbox's listeners; they will poll", e);
        }
    }
}
