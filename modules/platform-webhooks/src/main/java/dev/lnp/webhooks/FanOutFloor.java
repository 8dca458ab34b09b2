package dev.lnp.webhooks;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;

/**
 * Where a node's fan-out starts its scan of the outbox rows not yet dispatched. Marking a row dispatched leaves
 * its entry in the partial index {@code outbox_pending} until a VACUUM removes it, and new entries only go in at
 * the index's right end, so a scan from the start reads every row dispatched since the last VACUUM to reach the
 * first one still pending: between two autovacuums of a large outbox that is millions of entries, paid on every
 * pass.
 *
 * <p>So most passes start above a floor: the highest {@code seq} this node took in passes at least one
 * {@code window} ago. Nothing below it is left behind. A row's {@code seq} is taken when the row is inserted, so
 * every row below such a pass's highest {@code seq} was inserted before that pass, and its transaction, if it
 * lasted less than the window, has ended by now and was visible to a pass that still started below it. A row of a
 * transaction that stayed open longer is found by the scan from the start that every window brings, and so are
 * rows another node was fanning out (skipped as locked) and then gave back unmarked, say by dying mid-statement,
 * and anything on a node that just started (its first pass scans from the start).
 *
 * <p>The dispatcher's loop is its only user in a node; a test's {@code runOnce} may pass beside it, hence the locks.
 */
final class FanOutFloor {

    /** The highest {@code seq} taken in the passes of one second. */
    private record Mark(Instant second, long highestSeq) {
    }

    private final Duration window;
    /** Oldest first, one per second with a pass that took rows: at most one window's worth. */
    private final ArrayDeque<Mark> marks = new ArrayDeque<>();
    private long floor = -1;
    private Instant lastFullScan;

    FanOutFloor(Duration window) {
        this.window = window;
    }

    /** The {@code seq} this pass's scan starts above; -1 for a scan from the start. */
    synchronized long scanFrom(Instant now) {
        if (lastFullScan == null || !now.isBefore(lastFullScan.plus(window))) {
            return -1;
        }
        // A mark stands for passes anywhere in its second: it is old enough once its second's end is.
        while (!marks.isEmpty() && !marks.peekFirst().second().plusSeconds(1).plus(window).isAfter(now)) {
            floor = Math.max(floor, marks.pollFirst().highestSeq());
        }
        return floor;
    }

    /**
     * Records a pass that scanned from {@code scannedFrom} and took rows up to {@code highestSeq} (-1: none).
     */
    synchronized void passed(Instant now, long scannedFrom, long highestSeq) {
        if (scannedFrom < 0) {
            lastFullScan = now;
        }
        if (highestSeq < 0) {
            return;
        }
        Instant second = now.truncatedTo(ChronoUnit.SECONDS);
        Mark last = marks.peekLast();
        if (last != null && last.second().equals(second)) {
            marks.pollLast();
            marks.addLast(new Mark(second, Math.max(last.highestSeq(), highestSeq)));
        } else {
            marks.addLast(new Mark(second, highestSeq));
        }
    }
}
