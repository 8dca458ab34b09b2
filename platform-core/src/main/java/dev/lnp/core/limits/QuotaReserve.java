package dev.lnp.core.limits;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.jdbi.v3.core.Jdbi;

/**
 * Units of a workspace's monthly quota that this node took from the database ahead of the writes that use them,
 * so that concurrent writes of one workspace need no admission statement each (that statement was a sixth
 * of a POST's CPU). Every unit is counted in {@code lnp_core.quota_usage} when it is taken, so all nodes
 * together never pass the limit; a unit held here and not used within {@link #HELD_FOR} is given back to the
 * database.
 *
 * <p>A node asks for more than one unit only under contention: when a write's admission statement starts while
 * another one of the same workspace and quota is still running on this node, the next block doubles (up to
 * {@link #LARGEST_BLOCK}); an admission without company halves it again. One write at a time, as an API client
 * writing in sequence does, takes exactly its own unit, as before this reserve existed.
 *
 * <p>What it costs: the usage the console shows may include up to a block of units a node holds for writes about to
 * come, for at most {@link #HELD_FOR}; a node that dies holding units leaves them counted as used (at most a block
 * per workspace and node, against the month's limit).
 */
public final class QuotaReserve implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(QuotaReserve.class.getName());

    /** The most units a node takes at once. */
    public static final int LARGEST_BLOCK = 32;
    /** How long unused units are held before they are given back. */
    public static final Duration HELD_FOR = Duration.ofSeconds(1);

    private record Key(UUID workspaceId, String quota) {
    }

    /** One workspace's quota on this node: units held for {@code month}, the next block's size, admissions running. */
    private static final class Held {
        LocalDate month;
        int units;
        long expiresNanos;
        int block = 1;
        int admitting;
    }

    /** Units to give back to the database, outside any lock. */
    private record Returned(Key key, LocalDate month, int units) {
    }

    private final ConcurrentHashMap<Key, Held> held = new ConcurrentHashMap<>();
    private final Jdbi jdbi;
    private final LongSupplier nanoTime;
    private final long heldForNanos;
    private final Thread sweeper;
    private volatile boolean closed;

    public QuotaReserve(Jdbi jdbi) {
        this(jdbi, System::nanoTime, HELD_FOR);
    }

    QuotaReserve(Jdbi jdbi, LongSupplier nanoTime, Duration heldFor) {
        this.jdbi = jdbi;
        this.nanoTime = nanoTime;
        this.heldForNanos = heldFor.toNanos();
        this.sweeper = Thread.ofVirtual().name("lnp-quota-reserve").start(this::sweepUntilClosed);
    }

    /** Takes a held unit of {@code charge}'s quota and month for the workspace; false when none is held. */
    public boolean take(UUID workspaceId, QuotaCharge charge) {
        Held entry = held.get(new Key(workspaceId, charge.quota()));
        if (entry == null) {
            return false;
        }
        synchronized (entry) {
            if (entry.units > 0 && charge.month().equals(entry.month) && nanoTime.getAsLong() - entry.expiresNanos < 0) {
                entry.units--;
                return true;
            }
            return false;
        }
    }

    /**
     * How many units the admission statement about to run for this workspace should take (1 unless writes of it
     * meet on this node). Every call is followed by {@link #admitted}, whatever the statement's outcome.
     */
    public int blockFor(UUID workspaceId, String quota) {
        Held entry = held.computeIfAbsent(new Key(workspaceId, quota), key -> new Held());
        synchronized (entry) {
            entry.admitting++;
            if (entry.admitting > 1) {
                entry.block = Math.min(LARGEST_BLOCK, entry.block * 2);
            }
            return entry.block;
        }
    }

    /**
     * The admission statement took {@code granted} units (0: none, or it did not run): one is the request's, the
     * rest are held for the next writes.
     */
    public void admitted(UUID workspaceId, QuotaCharge charge, int granted) {
        Key key = new Key(workspaceId, charge.quota());
        Held entry = held.get(key);
        if (entry == null) {
            giveBack(List.of(new Returned(key, charge.month(), granted - 1)));
            return;
        }
        Returned stale = null;
        synchronized (entry) {
            boolean alone = entry.admitting == 1;
            entry.admitting = Math.max(0, entry.admitting - 1);
            if (alone) {
                entry.block = Math.max(1, entry.block / 2);
            }
            if (granted > 1) {
                long now = nanoTime.getAsLong();
                if (entry.units > 0 && (!charge.month().equals(entry.month) || now - entry.expiresNanos >= 0)) {
                    stale = new Returned(key, entry.month, entry.units);
                    entry.units = 0;
                }
                entry.month = charge.month();
                entry.units += granted - 1;
                entry.expiresNanos = now + heldForNanos;
            }
        }
        if (stale != null) {
            giveBack(List.of(stale));
        }
    }

    /**
     * Keeps a unit a write did not use for the next write, when this node holds units of that month for the
     * workspace; false otherwise (the caller gives it back to the database).
     */
    public boolean keep(UUID workspaceId, String quota, LocalDate month) {
        Held entry = held.get(new Key(workspaceId, quota));
        if (entry == null) {
            return false;
        }
        synchronized (entry) {
            if (month.equals(entry.month) && nanoTime.getAsLong() - entry.expiresNanos < 0) {
                entry.units++;
                return true;
            }
            return false;
        }
    }

    /** Gives back every unit held past its time, and forgets workspaces with no admission running. */
    void sweep() {
        long now = nanoTime.getAsLong();
        List<Returned> returned = new ArrayList<>();
        held.forEach((key, entry) -> {
            synchronized (entry) {
                if (now - entry.expiresNanos >= 0) {
                    if (entry.units > 0) {
                        returned.add(new Returned(key, entry.month, entry.units));
                        entry.units = 0;
                    }
                    // Quiet for a while: its next write starts again from a block of one.
                    if (entry.admitting == 0) {
                        held.remove(key, entry);
                    }
                }
            }
        });
        giveBack(returned);
    }

    /** Gives back everything held (the node stops). */
    @Override
    public void close() {
        closed = true;
        sweeper.interrupt();
        List<Returned> returned = new ArrayList<>();
        held.forEach((key, entry) -> {
            synchronized (entry) {
                if (entry.units > 0) {
                    returned.add(new Returned(key, entry.month, entry.units));
                    entry.units = 0;
                }
            }
        });
        giveBack(returned);
    }

    /** Units held on this node now, for tests and the console's explanation. */
    int held(UUID workspaceId, String quota) {
        Held entry = held.get(new Key(workspaceId, quota));
        if (entry == null) {
            return 0;
        }
        synchronized (entry) {
            return entry.units;
        }
    }

    private void sweepUntilClosed() {
        boolean failing = false;
        while (!closed) {
            try {
                Thread.sleep(Math.max(1, heldForNanos / 4_000_000));
                sweep();
                failing = false;
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // The database may be away; the units stay counted as used until it is back and a sweep succeeds.
                if (!failing) {
                    LOG.log(Level.WARNING, "Could not give back held quota units; retrying until the database"
                            + " answers", e);
                }
                failing = true;
            }
        }
    }

    private void giveBack(List<Returned> returned) {
        List<Returned> some = returned.stream().filter(r -> r.units() > 0).toList();
        if (some.isEmpty()) {
            return;
        }
        try {
            jdbi.useHandle(h -> {
                var update = h.prepareBatch("""
                        UPDATE lnp_core.quota_usage SET used = greatest(used - :units, 0)
                          FROM (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous_commit
                         WHERE workspace_id = :ws AND counter = :counter AND month = :month
                        """);
                for (Returned r : some) {
                    update.bind("units", (long) r.units()).bind("ws", r.key().workspaceId())
                            .bind("counter", r.key().quota()).bind("month", r.month()).add();
                }
                update.execute();
            });
        } catch (RuntimeException e) {
            // Put them back to be returned by the next sweep rather than lose them.
            for (Returned r : some) {
                Held entry = held.computeIfAbsent(r.key(), key -> new Held());
                synchronized (entry) {
                    if (entry.units == 0 || r.month().equals(entry.month)) {
                        entry.month = r.month();
                        entry.units += r.units();
                    }
                }
            }
            throw e;
        }
    }
}
