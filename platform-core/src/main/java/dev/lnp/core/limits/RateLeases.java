package dev.lnp.core.limits;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A node's leases on the per-minute rate windows, so that most requests are admitted without writing the window's
 * row. A window row ({@code lnp_core.rate_windows}) counts positions, not requests: a node reserves a run of
 * positions in one statement ({@code hits = hits + chunk}, returning the new total H, so the node owns positions
 * H - chunk + 1 .. H) and hands them to its requests one by one. A request's position is its number in the window
 * across all nodes; it is allowed while the position is within the limit, exactly as when every request added one.
 *
 * <p>The guarantee stays strict: a position is reserved before it is used and belongs to one node, so all nodes
 * together never admit more than the limit. The price is under-use: positions a node reserved and did not use by
 * the end of the minute are lost, so another node can refuse up to one chunk per other node early. That is why the
 * chunk is sized from the remaining budget ({@link #chunk}): one position while the budget is small (a limit of a
 * few requests behaves exactly as before), a sixteenth of what remains when it is large, never more than
 * {@link #MAX_CHUNK}.
 *
 * <p>Leases are keyed by the key's hash (with the bucket and the window start) rather than by its connection: the
 * node must know whether a lease covers the request before the lookup that finds the connection, so that the
 * lookup runs without counting. A connection's keys (two during a rotation's grace period) hold separate leases
 * on the same row, which only widens the under-use by one chunk. A lease is created only once its key has been
 * found live (random keys create nothing), and the leases of earlier minutes are dropped when a new minute's first
 * lease is made.
 */
public final class RateLeases {

    /** The largest run of positions a node reserves at once. */
    public static final int MAX_CHUNK = 64;
    /** The share of the remaining budget one reservation takes. */
    static final int SHARE_OF_REMAINING = 16;

    private record Holder(ByteBuffer keyHash, String bucket, Instant windowStart) {
    }

    private final ConcurrentHashMap<Holder, Lease> leases = new ConcurrentHashMap<>();
    private volatile Instant newestWindow = Instant.MIN;

    /**
     * What a request of a key needs before its lookup: a position this node owns ({@code owned}, taken from the
     * {@code lease}: the lookup writes nothing), or a reservation of {@code chunk} positions riding on the lookup.
     * A {@code leading} claim is the lease's one reservation of more than one position in flight.
     */
    public record Claim(Lease lease, int owned, int chunk, boolean leading) {

        public boolean covered() {
            return owned != 0;
        }

        /**
         * The request was refused before it was admitted (a 401) or its lookup failed: an owned position goes back
         * to the lease, and a leading claim lets the next request reserve in its place.
         */
        public void refused() {
            if (owned != 0) {
                lease.giveBack(owned);
            }
            if (leading) {
                lease.reservationDropped();
            }
        }
    }

    /** Takes a position the node owns for the key's window, or says how many positions to reserve. */
    public Claim claim(byte[] keyHash, RateLimiter.Window window) {
        Lease held = leases.get(holder(keyHash, window));
        return held == null ? new Claim(null, 0, 1, false) : held.claim();
    }

    /**
     * Records the reservation a claim's lookup made, which brought the window's total to {@code total}, for a key
     * found live (a lease is made only then, so random keys create nothing). The request takes the first position
     * (returned with the lease); the lease owns the rest.
     */
    public Reserved reserved(byte[] keyHash, RateLimiter.Window window, int total, Claim claim) {
        Lease lease = leases.computeIfAbsent(holder(keyHash, window), h -> new Lease());
        dropWindowsBefore(window.start());
        return new Reserved(lease, lease.reserved(total, claim.chunk(), claim.leading()));
    }

    /** A reservation's lease and the position of the request that made it. */
    public record Reserved(Lease lease, int position) {
    }

    /** How many leases the node holds (for tests). */
    int size() {
        return leases.size();
    }

    private void dropWindowsBefore(Instant start) {
        Instant newest = newestWindow;
        if (start.isAfter(newest)) {
            // Once a minute: the first lease of a new minute sweeps the old ones. A request that computed its
            // window just before the minute turned may add an old lease after the sweep; the next minute's sweeps it.
            newestWindow = start;
            leases.keySet().removeIf(h -> h.windowStart().isBefore(start));
        }
    }

    private static Holder holder(byte[] keyHash, RateLimiter.Window window) {
        return new Holder(ByteBuffer.wrap(keyHash), window.bucket(), window.start());
    }

    /**
     * The positions one node owns in one window, with what it knows of the window (the highest total it saw, the
     * limit of the last verdict) to size the next reservation. A tiny lock per lease: the work under it is a few
     * integer operations.
     *
     * <p>One reservation of more than one position at a time: requests that find the lease empty while one is in
     * flight reserve their own position only. Otherwise every concurrent request of a burst would reserve a full
     * chunk, and a node could hold (and lose at the minute's end) one chunk per concurrent request instead of one.
     */
    public static final class Lease {

        /** Runs of owned positions, {first, last}, taken from the front. */
        private final ArrayDeque<int[]> runs = new ArrayDeque<>();
        private int highestTotal;
        private int limit = -1;
        private boolean reserving;

        synchronized Claim claim() {
            int[] run = runs.peekFirst();
            if (run != null) {
                int position = run[0]++;
                if (run[0] > run[1]) {
                    runs.pollFirst();
                }
                return new Claim(this, position, 0, false);
            }
            if (reserving) {
                return new Claim(this, 0, 1, false);
            }
            int chunk = chunk();
            reserving = chunk > 1;
            return new Claim(this, 0, chunk, reserving);
        }

        /**
         * How many positions the next reservation takes: 1 while the limit is unknown (the window's first
         * reservation on this node) or the remaining budget is small, a sixteenth of the remaining budget when it
         * is large, at most {@link #MAX_CHUNK}.
         */
        private int chunk() {
            if (limit < 0) {
                return 1;
            }
            long remaining = (long) limit - highestTotal;
            return (int) Math.max(1, Math.min(MAX_CHUNK, remaining / SHARE_OF_REMAINING));
        }

        synchronized void giveBack(int position) {
            runs.addFirst(new int[] {position, position});
        }

        synchronized void reservationDropped() {
            reserving = false;
        }

        /**
         * Records a reservation of {@code chunk} positions that brought the window's total to {@code total}: the
         * caller's request takes the first of them (returned), the rest are owned by the lease.
         */
        synchronized int reserved(int total, int chunk, boolean leading) {
            if (chunk < 1 || total < chunk) {
                throw new IllegalArgumentException("A reservation of " + chunk + " cannot bring the total to " + total);
            }
            if (leading) {
                reserving = false;
            }
            highestTotal = Math.max(highestTotal, total);
            int first = total - chunk + 1;
            if (chunk > 1) {
                runs.addLast(new int[] {first + 1, total});
            }
            return first;
        }

        /** The limit the last verdict applied (a connection's limit can change within the minute). */
        public synchronized void limit(int limit) {
            this.limit = limit;
        }
    }
}
