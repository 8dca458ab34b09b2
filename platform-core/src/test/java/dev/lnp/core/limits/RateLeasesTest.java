package dev.lnp.core.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.http.ApiProblem;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The lease arithmetic that lets a node admit most requests without writing the window's row. */
class RateLeasesTest {

    private static final byte[] KEY = {1, 2, 3};
    private static final Instant AT = Instant.parse("2026-01-01T10:00:10Z");

    /** One node admitting requests of one key as the Authenticator does; the row is the window's {@code hits}. */
    private static final class Node {
        final RateLeases leases = new RateLeases();
        final AtomicInteger reservations = new AtomicInteger();

        int admit(AtomicInteger row, RateLimiter.Window window, int limit) {
            RateLeases.Claim claim = leases.claim(KEY.clone(), window);
            RateLeases.Lease lease = claim.lease();
            int position = claim.owned();
            if (!claim.covered()) {
                reservations.incrementAndGet();
                RateLeases.Reserved reserved = leases.reserved(KEY.clone(), window, row.addAndGet(claim.chunk()),
                        claim);
                lease = reserved.lease();
                position = reserved.position();
            }
            lease.limit(limit);
            return position;
        }
    }

    private static RateLimiter.Window window(Instant at) {
        return new RateLimiter(Clock.fixed(at, ZoneOffset.UTC)).window("rest");
    }

    @Test
    void theFirstReservationOfAWindowIsOnePositionThenASixteenthOfTheRemainingBudget() {
        var node = new Node();
        var row = new AtomicInteger();
        RateLimiter.Window window = window(AT);
        assertEquals(1, node.admit(row, window, 600), "the limit is not known before the first verdict");
        assertEquals(1, row.get());
        assertEquals(2, node.admit(row, window, 600));
        assertEquals(1 + 599 / 16, row.get(), "the second reservation takes a sixteenth of what remains");
        for (int expected = 3; expected <= row.get(); expected++) {
            assertEquals(expected, node.admit(row, window, 600), "positions are handed out in order");
        }
        assertEquals(2, node.reservations.get(), "38 requests, two writes");
    }

    @Test
    void theChunkIsCappedAndShrinksToOneAsTheBudgetRunsOut() {
        var node = new Node();
        var row = new AtomicInteger();
        RateLimiter.Window window = window(AT);
        List<Integer> chunks = new ArrayList<>();
        int before = 0;
        for (int i = 0; i < 20_000; i++) {
            node.admit(row, window, 10_000);
            if (row.get() != before) {
                chunks.add(row.get() - before);
                before = row.get();
            }
        }
        assertEquals(1, chunks.get(0));
        assertEquals(RateLeases.MAX_CHUNK, chunks.get(1), "a large budget: the cap");
        assertTrue(chunks.stream().allMatch(c -> c <= RateLeases.MAX_CHUNK));
        assertEquals(20_000, row.get(), "one node alone uses every position it reserves");
        int atLimit = chunks.size() - (20_000 - 10_000);
        assertEquals(List.of(1, 1, 1), chunks.subList(atLimit - 3, atLimit),
                "the last positions before the limit are reserved one at a time");
        assertTrue(atLimit < 300, "about 220 writes for the 10,000 requests within the limit: " + atLimit);
    }

    @Test
    void aSmallLimitIsCountedOneRequestAtATimeAcrossNodes() {
        var first = new Node();
        var second = new Node();
        var row = new AtomicInteger();
        RateLimiter.Window window = window(AT);
        var limiter = new RateLimiter(Clock.fixed(AT, ZoneOffset.UTC));
        assertEquals(1, first.admit(row, window, 4));
        assertEquals(2, second.admit(row, window, 4));
        assertEquals(3, first.admit(row, window, 4));
        int fourth = second.admit(row, window, 4);
        assertEquals(4, fourth);
        assertEquals(0, limiter.verdict(window, fourth, 4).remaining());
        assertEquals(3, limiter.verdict(window, 1, 4).remaining(), "remaining = limit - position");
        int fifth = first.admit(row, window, 4);
        assertEquals(5, fifth);
        var tooMany = assertThrows(ApiProblem.class, () -> limiter.verdict(window, fifth, 4));
        assertEquals(429, tooMany.status());
        assertEquals("50", tooMany.headers().get("Retry-After"));
        assertEquals(5, row.get());
        assertEquals(5, first.reservations.get() + second.reservations.get(), "a chunk of one per request");
    }

    @Test
    void aNewMinuteIsANewLeaseAndTheOldOnesAreDropped() {
        var node = new Node();
        var row = new AtomicInteger();
        RateLimiter.Window minute = window(AT);
        for (int i = 0; i < 3; i++) {
            node.admit(row, minute, 600);
        }
        assertEquals(1, node.leases.size());
        var nextRow = new AtomicInteger();
        RateLimiter.Window next = window(AT.plusSeconds(60));
        assertEquals(1, node.admit(nextRow, next, 600), "the new minute's row starts again, one position first");
        assertEquals(1, nextRow.get());
        assertEquals(1, node.leases.size(), "the old minute's lease is gone");
        assertFalse(node.leases.claim(KEY, minute).covered(), "its unused positions are lost, never reused");
        var otherBucket = new RateLimiter(Clock.fixed(AT.plusSeconds(60), ZoneOffset.UTC)).window("mcp");
        assertFalse(node.leases.claim(KEY, otherBucket).covered(), "each bucket has its own lease");
        assertFalse(node.leases.claim(new byte[] {9}, next).covered(), "each key has its own lease");
        assertEquals(1, node.leases.size(), "asking creates nothing");
    }

    @Test
    void aRefusedRequestGivesItsPositionBack() {
        var node = new Node();
        var row = new AtomicInteger();
        RateLimiter.Window window = window(AT);
        node.admit(row, window, 600);
        node.admit(row, window, 600);
        RateLeases.Claim claim = node.leases.claim(KEY, window);
        assertEquals(new RateLeases.Claim(claim.lease(), 3, 0, false), claim);
        claim.refused();
        assertEquals(3, node.admit(row, window, 600), "the next request gets the position back");
        assertEquals(4, node.admit(row, window, 600));
    }

    @Test
    void aReservationMustCoverItsOwnPositions() {
        var leases = new RateLeases();
        assertThrows(IllegalArgumentException.class, () -> leases.reserved(KEY, window(AT), 0, claimOf(1)));
        assertThrows(IllegalArgumentException.class, () -> leases.reserved(KEY, window(AT), 3, claimOf(4)));
        assertThrows(IllegalArgumentException.class, () -> leases.reserved(KEY, window(AT), 3, claimOf(0)));
    }

    private static RateLeases.Claim claimOf(int chunk) {
        return new RateLeases.Claim(null, 0, chunk, false);
    }

    @Test
    void oneReservationOfAChunkAtATimeTheOthersReserveTheirOwnPosition() {
        var node = new Node();
        var row = new AtomicInteger();
        RateLimiter.Window window = window(AT);
        node.admit(row, window, 100_000);
        RateLeases.Claim leading = node.leases.claim(KEY, window);
        assertEquals(new RateLeases.Claim(leading.lease(), 0, RateLeases.MAX_CHUNK, true), leading);
        RateLeases.Claim during = node.leases.claim(KEY, window);
        assertEquals(new RateLeases.Claim(leading.lease(), 0, 1, false), during,
                "while a chunk is being reserved, another request reserves only its own position");
        assertEquals(2, node.leases.reserved(KEY, window, row.addAndGet(1), during).position());
        leading.refused();
        RateLeases.Claim again = node.leases.claim(KEY, window);
        assertTrue(again.leading(), "a refused (or failed) leading claim lets the next request reserve the chunk");
        RateLeases.Reserved reserved = node.leases.reserved(KEY, window, row.addAndGet(again.chunk()), again);
        assertEquals(3, reserved.position());
        assertEquals(new RateLeases.Claim(reserved.lease(), 4, 0, false), node.leases.claim(KEY, window));
        assertEquals(5, node.leases.claim(KEY, window).owned(), "the chunk's positions follow in order");
        assertEquals(2 + RateLeases.MAX_CHUNK, row.get());
    }

    @Test
    void concurrentRequestsOnTwoNodesAdmitExactlyTheLimit() throws Exception {
        // Each node asks for more than the limit (plus a chunk per thread): a node that stops early keeps the
        // positions it reserved and did not use, and the other can then refuse up to one chunk early.
        int limit = 1_000;
        int requests = 2 * (limit + 2 * RateLeases.MAX_CHUNK);
        var nodes = List.of(new Node(), new Node());
        var row = new AtomicInteger();
        RateLimiter.Window window = window(AT);
        var positions = ConcurrentHashMap.<Integer>newKeySet();
        var start = new CountDownLatch(1);
        List<Future<Integer>> admittedByThread = new ArrayList<>();
        try (var pool = Executors.newFixedThreadPool(8)) {
            for (int t = 0; t < 8; t++) {
                Node node = nodes.get(t % 2);
                admittedByThread.add(pool.submit(() -> {
                    start.await();
                    int admitted = 0;
                    for (int i = 0; i < requests / 8; i++) {
                        int position = node.admit(row, window, limit);
                        assertTrue(positions.add(position), "position " + position + " handed out twice");
                        if (position <= limit) {
                            admitted++;
                        }
                    }
                    return admitted;
                }));
            }
            start.countDown();
            int admitted = 0;
            for (Future<Integer> f : admittedByThread) {
                admitted += f.get();
            }
            assertEquals(limit, admitted, "every position up to the limit is used, none past it is admitted");
        }
        int reservations = nodes.get(0).reservations.get() + nodes.get(1).reservations.get();
        assertEquals(requests, positions.size());
        assertTrue(row.get() - requests <= 2 * RateLeases.MAX_CHUNK, "at most one chunk per node unused: " + row.get());
        // A request past the limit still reserves its own position (a 429 counts, as before); the admitted ones
        // share far fewer writes.
        assertTrue(reservations - (requests - limit) < limit / 4, "writes: " + reservations);
    }
}
