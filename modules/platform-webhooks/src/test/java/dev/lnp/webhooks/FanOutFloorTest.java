package dev.lnp.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The floor only ever stands on passes at least a window old, and a scan from the start comes at least once per
 * window: together they are why no outbox row is left behind (the reasoning is in {@link FanOutFloor}).
 */
class FanOutFloorTest {

    private static final Duration WINDOW = Duration.ofSeconds(60);
    private static final Instant T0 = Instant.parse("2026-11-24T08:00:00.400Z");

    @Test
    void aNodeStartsWithAScanFromTheStartThenRisesOnlyOnPassesAWindowOld() {
        var floor = new FanOutFloor(WINDOW);
        assertEquals(-1, floor.scanFrom(T0), "the first pass scans from the start");
        floor.passed(T0, -1, 10);
        // Within the window nothing is old enough: still from the start (which counts as a full scan).
        assertEquals(-1, floor.scanFrom(T0.plusSeconds(30)));
        floor.passed(T0.plusSeconds(30), -1, 20);
        // 61.6 s after the first pass, its second (08:00:00) has ended a window ago; the second pass has not.
        assertEquals(10, floor.scanFrom(T0.plusMillis(61_600)));
        floor.passed(T0.plusMillis(61_600), 10, 25);
        assertEquals(10, floor.scanFrom(T0.plusSeconds(89)), "the pass of 30 s is a window old only from 91 s");
        floor.passed(T0.plusSeconds(89), 10, 30);
        // The last scan from the start was at 30 s: at 90 s the next one is due.
        assertEquals(-1, floor.scanFrom(T0.plusSeconds(90)));
        floor.passed(T0.plusSeconds(90), -1, 30);
        assertEquals(20, floor.scanFrom(T0.plusSeconds(91)), "now the pass of 30 s is a window old");
    }

    @Test
    void passesThatTakeNothingMoveNothing() {
        var floor = new FanOutFloor(WINDOW);
        floor.passed(T0, floor.scanFrom(T0), -1);
        floor.passed(T0.plusSeconds(1), floor.scanFrom(T0.plusSeconds(1)), -1);
        assertEquals(-1, floor.scanFrom(T0.plusSeconds(59)));
    }

    @Test
    void randomPassesNeverStandOnAPassYoungerThanTheWindowAndScanFromTheStartOncePerWindow() {
        SplittableRandom random = new SplittableRandom(14);
        for (int round = 0; round < 200; round++) {
            var floor = new FanOutFloor(WINDOW);
            record Pass(Instant at, long highest) {
            }
            List<Pass> passes = new ArrayList<>();
            Instant now = T0.plusMillis(random.nextInt(1_000));
            Instant lastFromStart = null;
            long seq = 0;
            for (int i = 0; i < 400; i++) {
                now = now.plusMillis(random.nextInt(10, 3_000));
                long from = floor.scanFrom(now);
                Instant at = now;
                long allowed = passes.stream().filter(p -> !p.at().plus(WINDOW).isAfter(at))
                        .mapToLong(Pass::highest).max().orElse(-1);
                assertTrue(from <= allowed, "floor " + from + " stands on a pass younger than the window");
                if (from < 0) {
                    lastFromStart = now;
                } else {
                    assertTrue(lastFromStart != null && Duration.between(lastFromStart, now).compareTo(WINDOW) < 0,
                            "a scan from the start is due once per window");
                }
                long highest = random.nextInt(4) == 0 ? -1 : (seq += random.nextInt(1, 50));
                floor.passed(now, from, highest);
                if (highest >= 0) {
                    passes.add(new Pass(now, highest));
                }
            }
        }
    }
}
