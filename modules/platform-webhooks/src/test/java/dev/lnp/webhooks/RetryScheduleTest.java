package dev.lnp.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RetryScheduleTest {

    static final Instant START = Instant.parse("2026-03-01T10:00:00Z");
    static final Outcome FAILED = Outcome.ofResponse(503, "", false, Optional.empty());

    /** A generator always answering the same fraction, to pin the jitter to its extremes. */
    static RandomGenerator fixed(double value) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                return (long) (value * Long.MAX_VALUE);
            }

            @Override
            public double nextDouble() {
                return value;
            }
        };
    }

    @Test
    void tenAttemptsOnTheDocumentedScheduleThenFailed() {
        var schedule = new RetrySchedule(fixed(0.5)); // no jitter
        List<Duration> expected = List.of(Duration.ofSeconds(5), Duration.ofMinutes(1), Duration.ofMinutes(5),
                Duration.ofMinutes(30), Duration.ofHours(1), Duration.ofHours(2), Duration.ofHours(4), Duration.ofHours(6),
                Duration.ofHours(8));
        Instant now = START;
        for (int attempt = 1; attempt <= 9; attempt++) {
            var decision = schedule.decide(FAILED, attempt, START, now, Optional.empty());
            assertEquals("pending", decision.state());
            assertEquals(expected.get(attempt - 1), Duration.between(now, decision.nextAttempt()), "after attempt " + attempt);
            now = decision.nextAttempt();
        }
        assertTrue(Duration.between(START, now).compareTo(Duration.ofHours(24)) < 0, "the 10th attempt is within 24 h");
        var last = schedule.decide(FAILED, 10, START, now, Optional.empty());
        assertEquals("failed", last.state());
        assertNull(last.nextAttempt());
        assertTrue(last.reason().contains("10 attempts"), last.reason());
    }

    @Test
    void jitterStaysWithinTenPercentAndKeepsTheWholeRoundInsideTheWindow() {
        for (double extreme : new double[] {0.0, 0.999999}) {
            var schedule = new RetrySchedule(fixed(extreme));
            Instant now = START;
            for (int attempt = 1; attempt <= 9; attempt++) {
                var decision = schedule.decide(FAILED, attempt, START, now, Optional.empty());
                long wait = Duration.between(now, decision.nextAttempt()).toMillis();
                long nominal = RetrySchedule.WAITS.get(attempt - 1).toMillis();
                assertTrue(wait >= nominal * 0.9 - 1 && wait <= nominal * 1.1 + 1, attempt + ": " + wait);
                now = decision.nextAttempt();
            }
            assertTrue(now.isBefore(START.plus(RetrySchedule.WINDOW)), "last attempt at " + now);
        }
        var random = new RetrySchedule(RandomGenerator.getDefault());
        var spread = new java.util.HashSet<Instant>();
        for (int i = 0; i < 20; i++) {
            spread.add(random.decide(FAILED, 4, START, START, Optional.empty()).nextAttempt());
        }
        assertTrue(spread.size() > 10, "receivers coming back are not hit by everyone at the same instant");
    }

    @Test
    void retryAfterIsHonouredWhenItAsksForMoreTime() {
        var schedule = new RetrySchedule(fixed(0.5));
        var later = schedule.decide(Outcome.ofResponse(429, "", false, Optional.empty()), 1, START, START,
                Optional.of(START.plusSeconds(120)));
        assertEquals(START.plusSeconds(120), later.nextAttempt());
        var sooner = schedule.decide(FAILED, 3, START, START, Optional.of(START.plusSeconds(1)));
        assertEquals(START.plus(Duration.ofMinutes(5)), sooner.nextAttempt(), "never faster than the schedule");
    }

    @Test
    void aRetryAfterBeyondTheWindowGetsOneLastAttemptAtItsEnd() {
        var schedule = new RetrySchedule(fixed(0.5));
        Instant now = START.plus(Duration.ofHours(20));
        var decision = schedule.decide(FAILED, 5, START, now, Optional.of(now.plus(Duration.ofHours(10))));
        assertEquals(START.plus(RetrySchedule.WINDOW), decision.nextAttempt());
        var over = schedule.decide(FAILED, 6, START, START.plus(RetrySchedule.WINDOW), Optional.empty());
        assertEquals("failed", over.state());
        assertTrue(over.reason().contains("24-hour"), over.reason());
    }

    @Test
    void deliveredAndPermanentAreFinal() {
        var schedule = new RetrySchedule(fixed(0.5));
        assertEquals("delivered", schedule.decide(Outcome.ofResponse(200, "", false, Optional.empty()), 1, START, START,
                Optional.empty()).state());
        var gone = schedule.decide(Outcome.ofResponse(410, "", false, Optional.empty()), 1, START, START, Optional.empty());
        assertEquals("failed", gone.state());
        assertNull(gone.nextAttempt());
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 201, 202, 204, 299})
    void twoHundredsAreDelivered(int status) {
        assertEquals(Outcome.Verdict.DELIVERED, Outcome.classify(status));
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 404, 405, 408, 409, 410, 413, 422, 499})
    void fourHundredsButTooManyRequestsArePermanent(int status) {
        assertEquals(Outcome.Verdict.PERMANENT, Outcome.classify(status));
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 301, 302, 303, 307, 308, 429, 500, 502, 503, 504, 599})
    void everythingElseIsRetried(int status) {
        assertEquals(Outcome.Verdict.RETRY, Outcome.classify(status));
    }

    @Test
    void retryAfterIsReadAsSecondsOrAnHttpDate() {
        assertEquals(Optional.of(START.plusSeconds(30)), Outcome.parseRetryAfter("30", START));
        assertEquals(Optional.of(Instant.parse("2026-03-01T10:05:00Z")),
                Outcome.parseRetryAfter("Sun, 01 Mar 2026 10:05:00 GMT", START));
        assertEquals(Optional.empty(), Outcome.parseRetryAfter("soon", START));
        assertEquals(Optional.empty(), Outcome.parseRetryAfter("-5", START));
        assertEquals(Optional.empty(), Outcome.parseRetryAfter(null, START));
    }
}
