package dev.lnp.plugins.trials;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The trials' time: the system clock, which tests may move forward (to see requests and trials expire) when the
 * deployment sets {@code lnp.trials.movable_clock=true}. Offered to tests with {@code Registrar.provide}; a
 * production deployment leaves it off, and then {@link #advance} refuses.
 */
public final class TrialClock extends Clock {

    private final Clock base = Clock.systemUTC();
    private volatile Duration offset = Duration.ZERO;
    private volatile boolean movable;

    void allowMoving(boolean movable) {
        this.movable = movable;
    }

    /** Moves the trials' time forward. */
    public void advance(Duration by) {
        if (!movable) {
            throw new IllegalStateException("the trials' clock moves only with lnp.trials.movable_clock=true");
        }
        offset = offset.plus(by);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the trials' clock is UTC");
    }

    @Override
    public Instant instant() {
        return base.instant().plus(offset);
    }
}
