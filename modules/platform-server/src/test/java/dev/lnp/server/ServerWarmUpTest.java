package dev.lnp.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The server warm-up is only a head start: it never keeps a stopping JVM alive and never fails a start. */
class ServerWarmUpTest {

    @Test
    void runsOnADaemonThreadAndSwallowsItsFailures() throws Exception {
        AtomicReference<Throwable> uncaught = new AtomicReference<>();
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> uncaught.set(e));
        try {
            Thread failing = ServerWarmUp.start(() -> {
                throw new IllegalStateException("no registry");
            });
            assertTrue(failing.isDaemon(), "a warm-up that hangs must not keep the JVM from stopping");
            failing.join(10_000);
            Thread linkage = ServerWarmUp.start(() -> {
                throw new NoClassDefFoundError("io/helidon/Missing");
            });
            linkage.join(10_000);
            assertEquals(null, uncaught.get());
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
    }

    @Test
    void theRealWarmUpFinishes() throws Exception {
        Thread warmUp = ServerWarmUp.start();
        assertTrue(warmUp.isDaemon());
        warmUp.join(60_000);
        assertTrue(!warmUp.isAlive(), "the warm-up did not finish");
    }
}
