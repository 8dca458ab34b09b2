package dev.lnp.testkit;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The platform counts requests in per-minute windows, and a node leases runs of positions in the current one. A
 * test that expects its requests to share one window (a limit reached, a lease reused, an admission served from the
 * node's cache because its rate position was already leased) waits here when the minute is about to turn, so the
 * turn cannot land between two of its requests.
 */
public final class RateWindows {

    private RateWindows() {
    }

    /** Returns at once when at least {@code seconds} remain in this minute; otherwise after the next minute began. */
    public static void stayInOneMinute(int seconds) {
        Instant now = Instant.now();
        Instant next = now.truncatedTo(ChronoUnit.MINUTES).plus(1, ChronoUnit.MINUTES);
        long leftMillis = next.toEpochMilli() - now.toEpochMilli();
        if (leftMillis >= seconds * 1000L) {
            return;
        }
        try {
            Thread.sleep(leftMillis + 50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the next minute", e);
        }
    }
}
