package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestDatabases;
import dev.lnp.testkit.TestPlatform;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/**
 * Striped counters (crm.contact_counts) are written on the stripe {@code lnp_core.counter_stripe()} names. Each
 * pooled connection claims one of its own as it opens, so writers never queue on each other's counter row; a
 * session the platform did not open falls back to its backend pid, as every session did before.
 */
@PlatformTest
class CounterStripeTest {

    private static final String STRIPE_LOCKS_HELD = """
            SELECT count(*) FROM pg_locks
             WHERE locktype = 'advisory' AND classid = x'6C6E7073'::int AND pid = pg_backend_pid() AND granted
            """;

    @Test
    void everyPooledConnectionOfTwoNodesOnOneDatabaseHasAStripeOfItsOwn(TestPlatform platform) {
        try (TestPlatform second = TestPlatform.startOn(platform, List.of(), Map.of())) {
            List<Handle> held = new ArrayList<>();
            try {
                Set<Integer> stripes = new TreeSet<>();
                for (TestPlatform node : List.of(platform, second)) {
                    for (int i = 0; i < 8; i++) { // the test pool's size: every connection of the node at once
                        Handle handle = node.jdbi().open();
                        held.add(handle);
                        stripes.add(handle.createQuery("SELECT lnp_core.counter_stripe()").mapTo(Integer.class).one());
                        assertEquals(1, handle.createQuery(STRIPE_LOCKS_HELD).mapTo(Integer.class).one(),
                                "the connection holds its stripe's lock, and only that one");
                    }
                }
                assertEquals(16, stripes.size(), "16 connections, 16 stripes: " + stripes);
                assertTrue(stripes.stream().allMatch(s -> s >= 0 && s < 16), stripes.toString());
            } finally {
                held.forEach(Handle::close);
            }
        }
    }

    @Test
    void aSessionThePlatformDidNotOpenFallsBackToItsBackendPid(TestPlatform platform) {
        var server = TestDatabases.server();
        Jdbi outside = Jdbi.create(platform.databaseUrl(), server.user(), server.password());
        outside.useHandle(h -> {
            assertEquals(0, h.createQuery(STRIPE_LOCKS_HELD).mapTo(Integer.class).one());
            assertTrue(h.createQuery("SELECT lnp_core.counter_stripe() = pg_backend_pid() % 16")
                    .mapTo(Boolean.class).one());
        });
    }
}
