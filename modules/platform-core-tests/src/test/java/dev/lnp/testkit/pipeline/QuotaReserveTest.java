package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.core.auth.Connections;
import dev.lnp.core.limits.QuotaCharge;
import dev.lnp.core.limits.QuotaReserve;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.RateWindows;
import dev.lnp.testkit.TestPlatform;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Writes of one workspace that meet on a node take their quota units in blocks and are then admitted from the
 * node's cache without an admission statement (QuotaReserve). Every unit stays accounted for: the limit holds
 * under concurrency, and once the writes stop the usage is exactly the writes that succeeded.
 */
@PlatformTest(plugins = "probe")
class QuotaReserveTest {

    private static final String ITEMS = "/api/v1/probe/items";

    /** Cached admissions need the reads' rate positions in one lease: not across a minute's turn. */
    @BeforeEach
    void notAcrossAMinuteTurn() {
        RateWindows.stayInOneMinute(20);
    }

    @Test
    void writesOneAtATimeTakeExactlyTheirOwnUnit(TestPlatform platform) {
        UUID ws = platform.createWorkspace("one at a time");
        String key = key(platform, ws);
        for (int i = 1; i <= 6; i++) {
            assertEquals(201, platform.post(ITEMS, key, "{\"name\":\"n" + i + "\"}").status());
            assertEquals(i, used(platform, ws), "nothing held ahead for a client writing in sequence");
        }
    }

    @Test
    void concurrentWritesShareBlocksAndEveryUnitIsAccountedFor(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("concurrent writes");
        String key = key(platform, ws);
        long cachedBefore = platform.admissions("cache");
        Map<Integer, AtomicInteger> statuses = writeConcurrently(platform, key, 16, 25);
        assertEquals(Map.of(201, 400), counts(statuses), "every write succeeded");
        assertTrue(platform.admissions("cache") - cachedBefore > 0,
                "some writes were admitted with a held unit, without an admission statement");
        assertEquals(400, settledUsed(platform, ws), "held units not used went back: usage is exactly the writes");
    }

    /** Replays and failed writes give their units back, to the held units while they last: none is lost or kept. */
    @Test
    void unitsOfConcurrentReplaysAndFailuresComeBack(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("replays under concurrency");
        String key = key(platform, ws);
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        try (var pool = Executors.newFixedThreadPool(16)) {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 16; w++) {
                int writer = w;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 10; i++) {
                        Map<String, String> idem = Map.of("Idempotency-Key", "w" + writer + "-" + i);
                        String body = "{\"name\":\"w" + writer + "-" + i + "\"}";
                        for (String sent : List.of(body, body, "{\"name\":\"other\"}")) {
                            // created, then replayed (no unit used), then the key reused for another body (422)
                            int status = platform.send("POST", ITEMS, key, sent, idem).status();
                            statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        assertEquals(Map.of(201, 320, 422, 160), counts(statuses), "160 created, 160 replayed, 160 refused");
        assertEquals(160, settledUsed(platform, ws), "only the writes that created something used a unit");
    }

    @Test
    void concurrentWritesNeverPassTheLimit(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("limit under concurrency");
        platform.setQuota(ws, "probe_writes", 50);
        String key = key(platform, ws);
        Map<Integer, AtomicInteger> statuses = writeConcurrently(platform, key, 16, 10);
        assertEquals(Map.of(201, 50, 429, 110), counts(statuses));
        assertEquals(50, settledUsed(platform, ws));
    }

    @Test
    void heldUnitsBelongToTheirMonthAndGoBackWhenTheNodeStops(TestPlatform platform) {
        UUID ws = platform.createWorkspace("months");
        LocalDate october = LocalDate.of(2026, 10, 1);
        LocalDate november = LocalDate.of(2026, 11, 1);
        platform.jdbi().useHandle(h -> h.execute("""
                INSERT INTO lnp_core.quota_usage (workspace_id, counter, month, used)
                VALUES (?, 'probe_writes', ?, 10), (?, 'probe_writes', ?, 10)""", ws, october, ws, november));
        QuotaCharge inOctober = new QuotaCharge("probe_writes", october, 100);
        QuotaCharge inNovember = new QuotaCharge("probe_writes", november, 100);
        try (QuotaReserve reserve = new QuotaReserve(platform.jdbi())) {
            assertFalse(reserve.take(ws, inOctober), "nothing held yet");
            reserve.blockFor(ws, "probe_writes");
            reserve.admitted(ws, inOctober, 4); // one for the write that asked, three held
            assertFalse(reserve.take(ws, inNovember), "October's units are not November's");
            assertTrue(reserve.take(ws, inOctober));
            assertTrue(reserve.keep(ws, "probe_writes", october), "a unit a write did not use is kept");
            assertFalse(reserve.keep(ws, "probe_writes", november));

            reserve.blockFor(ws, "probe_writes");
            reserve.admitted(ws, inNovember, 3); // November now: October's three go back to October
            assertEquals(7, used(platform, ws, october));
            assertTrue(reserve.take(ws, inNovember));
        }
        assertEquals(9, used(platform, ws, november), "the unit still held went back when the reserve closed");
    }

    private static Map<Integer, AtomicInteger> writeConcurrently(TestPlatform platform, String key, int writers,
            int each) throws Exception {
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        try (var pool = Executors.newFixedThreadPool(writers)) {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        int status = platform.post(ITEMS, key, "{\"name\":\"w" + writer + "-" + i + "\"}").status();
                        statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        return statuses;
    }

    private static Map<Integer, Integer> counts(Map<Integer, AtomicInteger> statuses) {
        Map<Integer, Integer> counts = new java.util.TreeMap<>();
        statuses.forEach((status, n) -> counts.put(status, n.get()));
        return counts;
    }

    /** The usage once this node has given back what it held: units expire after HELD_FOR, swept four times as often. */
    private static long settledUsed(TestPlatform platform, UUID ws) throws InterruptedException {
        Thread.sleep(QuotaReserve.HELD_FOR.multipliedBy(2).toMillis());
        return used(platform, ws);
    }

    private static String key(TestPlatform platform, UUID ws) {
        return platform.connections().create(new Connections.NewConnection(ws, "writer", List.of(), "full-access",
                null, null)).key();
    }

    private static long used(TestPlatform platform, UUID ws) {
        return used(platform, ws, LocalDate.now(ZoneOffset.UTC).withDayOfMonth(1));
    }

    private static long used(TestPlatform platform, UUID ws, LocalDate month) {
        return platform.jdbi().withHandle(h -> h.createQuery("""
                        SELECT COALESCE(sum(used), 0) FROM lnp_core.quota_usage
                         WHERE workspace_id = :ws AND counter = 'probe_writes' AND month = :month
                        """).bind("ws", ws).bind("month", month).mapTo(Long.class).one());
    }
}
