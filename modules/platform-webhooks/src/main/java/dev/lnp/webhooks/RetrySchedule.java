package dev.lnp.webhooks;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * When a failed attempt is tried again: ten attempts in a round (at 0, 5 s, 1 min, 5 min, 30 min, 1 h, 2 h, 4 h,
 * 6 h and 8 h after each previous one), each wait stretched or shrunk by up to 10 % so that receivers coming
 * back are not hit by every delivery at once, all within 24 hours of the round's start. A receiver's
 * {@code Retry-After} is honoured when it asks for more time than the schedule, up to the end of the window.
 */
public final class RetrySchedule {

    /** The waits after attempts 1 to 9; attempt 10 is the last. They add up to 21 h 36 min 5 s. */
    public static final List<Duration> WAITS = List.of(
            Duration.ofSeconds(5), Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(30),
            Duration.ofHours(1), Duration.ofHours(2), Duration.ofHours(4), Duration.ofHours(6), Duration.ofHours(8));
    public static final int MAX_ATTEMPTS = WAITS.size() + 1;
    public static final Duration WINDOW = Duration.ofHours(24);
    public static final double JITTER = 0.10;

    /** What happens to a delivery after an attempt: done, or tried again at {@code nextAttempt}. */
    public record Decision(String state, Instant nextAttempt, String reason) {
        static Decision delivered() {
            return new Decision("delivered", null, null);
        }

        static Decision failed(String reason) {
            return new Decision("failed", null, reason);
        }

        static Decision retryAt(Instant at) {
            return new Decision("pending", at, null);
        }

        public boolean isFinal() {
            return nextAttempt == null;
        }
    }

    private final RandomGenerator random;

    public RetrySchedule(RandomGenerator random) {
        this.random = random;
    }

    /**
     * @param roundAttempts attempts made in this round, including the one just made (1 after the first)
     * @param roundStart    when the round began (the event fanned out, or a redelivery was asked for)
     * @param retryAfter    the receiver's {@code Retry-After}, as an instant, if it sent one
     */
    public Decision decide(Outcome outcome, int roundAttempts, Instant roundStart, Instant now,
            Optional<Instant> retryAfter) {
        return switch (outcome.verdict()) {
            case DELIVERED -> Decision.delivered();
            case PERMANENT -> Decision.failed("the receiver refused the delivery for good");
            case RETRY -> retry(roundAttempts, roundStart, now, retryAfter);
        };
    }

    private Decision retry(int roundAttempts, Instant roundStart, Instant now, Optional<Instant> retryAfter) {
        if (roundAttempts >= MAX_ATTEMPTS) {
            return Decision.failed("all " + MAX_ATTEMPTS + " attempts failed");
        }
        Instant deadline = roundStart.plus(WINDOW);
        if (!now.isBefore(deadline)) {
            return Decision.failed("the 24-hour retry window is over");
        }
        Instant next = now.plus(jittered(WAITS.get(Math.max(0, roundAttempts - 1))));
        if (retryAfter.isPresent() && retryAfter.get().isAfter(next)) {
            next = retryAfter.get();
        }
        // A Retry-After past the window still gets the last attempt, at the window's end.
        return Decision.retryAt(next.isAfter(deadline) ? deadline : next);
    }

    Duration jittered(Duration wait) {
        double factor = 1 + (random.nextDouble() * 2 - 1) * JITTER;
        return Duration.ofMillis(Math.round(wait.toMillis() * factor));
    }
}
