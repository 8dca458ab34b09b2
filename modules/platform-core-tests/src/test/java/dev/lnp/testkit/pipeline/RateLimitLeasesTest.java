package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.core.auth.Authenticator;
import dev.lnp.core.auth.Connections;
import dev.lnp.core.limits.RateLeases;
import dev.lnp.core.limits.RateLimiter;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.RateWindows;
import dev.lnp.testkit.TestPlatform;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A node admits most requests from its lease on the rate window, without writing the window's row, and
 * all nodes together still never admit more than the limit.
 */
@PlatformTest(plugins = "probe")
class RateLimitLeasesTest {

    private static final String ITEMS = "/api/v1/probe/items";

    private static Connections.Issued connection(TestPlatform platform, String name, int restPerMinute) {
        UUID ws = platform.createWorkspace(name);
        var issued = platform.connections().create(new Connections.NewConnection(ws, name, List.of(), "full-access",
                null, null));
        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.connections SET rest_per_minute = ? WHERE id = ?",
                restPerMinute, issued.connectionId()));
        return issued;
    }

    @Test
    void aBurstWithALargeLimitWritesTheWindowFarLessThanOncePerRequest(TestPlatform platform) throws Exception {
        var issued = connection(platform, "burst", 10_000);
        // Counts the writes to the connection's window rows (the upserts' inserts and updates).
        platform.jdbi().useHandle(h -> h.execute("""
                CREATE TABLE public.rate_window_writes (connection_id uuid NOT NULL);
                CREATE FUNCTION public.count_rate_window_write() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    INSERT INTO public.rate_window_writes VALUES (NEW.connection_id);
                    RETURN NEW;
                END $$;
                CREATE TRIGGER count_writes AFTER INSERT OR UPDATE ON lnp_core.rate_windows
                    FOR EACH ROW EXECUTE FUNCTION public.count_rate_window_write();
                """));
        try {
            RateWindows.stayInOneMinute(20);
            int requests = 200;
            List<Integer> statuses = concurrently(8, requests, () -> platform.get(ITEMS, issued.key()).status());
            assertEquals(requests, statuses.stream().filter(s -> s == 200).count(), statuses.toString());

            int hits = hits(platform, issued.connectionId());
            assertTrue(hits >= requests && hits - requests <= RateLeases.MAX_CHUNK,
                    "the row counts every request, and at most one chunk of positions reserved and not yet used: "
                            + hits);
            long writes = platform.jdbi().withHandle(h -> h.createQuery(
                            "SELECT count(*) FROM public.rate_window_writes WHERE connection_id = :c")
                    .bind("c", issued.connectionId()).mapTo(Long.class).one());
            assertTrue(writes <= requests / 4, writes + " writes to the window for " + requests + " requests");
        } finally {
            platform.jdbi().useHandle(h -> h.execute("""
                    DROP TRIGGER count_writes ON lnp_core.rate_windows;
                    DROP FUNCTION public.count_rate_window_write();
                    DROP TABLE public.rate_window_writes;
                    """));
        }
    }

    @Test
    void concurrentRequestsOnTwoNodesNeverExceedTheLimit(TestPlatform platform) throws Exception {
        var issued = connection(platform, "two nodes", 40);
        try (TestPlatform second = TestPlatform.startOn(platform, List.of("probe"), Map.of())) {
            RateWindows.stayInOneMinute(20);
            // Each node asks for more than the limit: positions a node reserved and did not use are lost at the
            // minute's end, so with a node that stopped early the other could be refused a chunk early.
            List<Integer> statuses = concurrently(8, 120, new Callable<>() {
                private int next;

                @Override
                public Integer call() {
                    TestPlatform node;
                    synchronized (this) {
                        node = next++ % 2 == 0 ? platform : second;
                    }
                    return node.get(ITEMS, issued.key()).status();
                }
            });
            assertEquals(40, statuses.stream().filter(s -> s == 200).count(), statuses.toString());
            assertEquals(80, statuses.stream().filter(s -> s == 429).count(), statuses.toString());
            assertTrue(hits(platform, issued.connectionId()) >= 120);
        }
    }

    @Test
    void aRequestRefusedAfterTakingAPositionGivesItBackToTheLease(TestPlatform platform) throws Exception {
        var issued = connection(platform, "given back", 10_000);
        Authenticator authenticator = platform.platform().authenticator();
        List<String> bearer = List.of("Bearer " + issued.key());
        RateWindows.stayInOneMinute(20);
        RateLimiter.Window window = new RateLimiter(Clock.systemUTC()).window("rest");
        var first = authenticator.authenticate(bearer, window);
        assertEquals(1, first.hits());
        first.lease().limit(10_000);
        assertEquals(2, authenticator.authenticate(bearer, window).hits(), "reserves a chunk: 2 .. 65");
        assertEquals(1 + RateLeases.MAX_CHUNK, hits(platform, issued.connectionId()));

        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.api_keys SET revoked_at = now() WHERE connection_id = ?",
                issued.connectionId()));
        ApiProblem revoked = assertThrows(ApiProblem.class, () -> authenticator.authenticate(bearer, window));
        assertEquals(401, revoked.status());
        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.api_keys SET revoked_at = NULL WHERE connection_id = ?",
                issued.connectionId()));
        assertEquals(3, authenticator.authenticate(bearer, window).hits(),
                "the refused request's position went back to the lease");
        assertEquals(4, authenticator.authenticate(bearer, window).hits());
        assertEquals(1 + RateLeases.MAX_CHUNK, hits(platform, issued.connectionId()), "nothing written meanwhile");
    }

    private static List<Integer> concurrently(int threads, int requests, Callable<Integer> request)
            throws Exception {
        List<Future<Integer>> futures = new ArrayList<>();
        try (var pool = Executors.newFixedThreadPool(threads)) {
            for (int i = 0; i < requests; i++) {
                futures.add(pool.submit(request));
            }
        }
        List<Integer> statuses = new ArrayList<>();
        for (Future<Integer> f : futures) {
            statuses.add(f.get());
        }
        return statuses;
    }

    private static int hits(TestPlatform platform, UUID connection) {
        return platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT sum(hits) FROM lnp_core.rate_windows WHERE connection_id = :c AND bucket = 'rest'")
                .bind("c", connection).mapTo(Integer.class).one());
    }

}
