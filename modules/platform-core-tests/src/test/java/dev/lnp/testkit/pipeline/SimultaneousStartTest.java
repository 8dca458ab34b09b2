package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.database.migrations.Migrations;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Nodes that start at the same moment against one database (a cluster started together, two restarted at once)
 * each grant the tenant role its rights on the plugins' schemas. PostgreSQL rewrites a schema's catalog row for
 * every {@code GRANT}, even one that changes nothing, and two at once fail with "tuple concurrently updated":
 * without a lock, the second of two servers started together exited with that error.
 */
@PlatformTest(plugins = "probe")
class SimultaneousStartTest {

    private static final int NODES = 6;
    private static final int ROUNDS = 15;

    @Test
    void nodesPreparingThePluginsSchemasAtOnceAllStart(TestPlatform platform) throws Exception {
        var probe = new Migrations.Owner("probe", "probe", getClass().getClassLoader());
        var barrier = new CyclicBarrier(NODES);
        List<Throwable> failures = new ArrayList<>();
        try (var nodes = Executors.newFixedThreadPool(NODES)) {
            List<Future<?>> starts = new ArrayList<>();
            for (int node = 0; node < NODES; node++) {
                // A node of its own: its own Migrations over the platform's pool, as a second process would have.
                var migrations = new Migrations(platform.platform().database().dataSource(), platform.jdbi());
                starts.add(nodes.submit(() -> {
                    for (int round = 0; round < ROUNDS; round++) {
                        barrier.await(60, TimeUnit.SECONDS);
                        migrations.preparePlugins(List.of(probe));
                    }
                    return null;
                }));
            }
            for (Future<?> start : starts) {
                try {
                    start.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    failures.add(e.getCause());
                }
            }
        }
        assertEquals(List.of(), failures.stream().map(String::valueOf).toList());
    }
}
