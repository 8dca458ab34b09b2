package dev.lnp.core.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.Registrar;
import dev.lnp.api.Worker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** The kernel runs declared workers: again after a failure, which is logged, and never after the platform stops. */
class PluginWorkersTest {

    private static PluginRegistry registryWith(Consumer<Registrar> declarations) {
        var registry = new PluginRegistry();
        registry.register("notes", new PlatformPlugin() {
            @Override
            public void register(Registrar registrar) {
                declarations.accept(registrar);
            }
        });
        return registry;
    }

    @Test
    void aFailedRunIsLoggedAndTheNextRunStillComes() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch third = new CountDownLatch(3);
        Worker failingFirst = context -> {
            third.countDown();
            if (runs.incrementAndGet() == 1) {
                throw new IllegalStateException("database away");
            }
        };
        List<LogRecord> logged = new CopyOnWriteArrayList<>();
        Logger logger = Logger.getLogger(PluginWorkers.class.getName());
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(capture);
        try (var workers = PluginWorkers.start(registryWith(r -> r.worker("sweeper",
                context -> Duration.ofMillis(10), failingFirst)), null)) {
            assertTrue(third.await(10, TimeUnit.SECONDS), "runs after the failure: " + runs.get());
        } finally {
            logger.removeHandler(capture);
        }
        LogRecord failure = logged.stream().filter(r -> r.getLevel() == Level.WARNING).findFirst().orElseThrow();
        assertTrue(failure.getMessage().contains("sweeper") && failure.getMessage().contains("notes"),
                failure.getMessage());
        assertEquals("database away", failure.getThrown().getMessage());
    }

    @Test
    void closingInterruptsTheRunAndNoRunFollows() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        Worker slow = context -> {
            runs.incrementAndGet();
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
        };
        var workers = PluginWorkers.start(registryWith(r -> r.worker("indexer", context -> Duration.ofMillis(1),
                slow)), null);
        assertTrue(started.await(10, TimeUnit.SECONDS));
        workers.close();
        assertTrue(interrupted.await(1, TimeUnit.SECONDS));
        Thread.sleep(50);
        assertEquals(1, runs.get());
    }

    @Test
    void namesAreCheckedAtRegistrationAndIntervalsAtStart() {
        Worker nothing = context -> { };
        var badName = assertThrows(IllegalArgumentException.class,
                () -> registryWith(r -> r.worker("Sweeper", context -> Duration.ofSeconds(1), nothing)));
        assertTrue(badName.getMessage().contains("notes"), badName.getMessage());
        assertThrows(IllegalStateException.class, () -> registryWith(r -> r.worker("sweeper",
                context -> Duration.ofSeconds(1), nothing).worker("sweeper", context -> Duration.ofSeconds(1), nothing)));
        var zero = assertThrows(IllegalArgumentException.class, () -> PluginWorkers.start(
                registryWith(r -> r.worker("sweeper", context -> Duration.ZERO, nothing)), null));
        assertTrue(zero.getMessage().contains("positive interval"), zero.getMessage());
    }
}
