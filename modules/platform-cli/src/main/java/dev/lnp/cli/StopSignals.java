package dev.lnp.cli;

import java.lang.System.Logger.Level;
import java.util.concurrent.CountDownLatch;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT ask the server to stop instead of exiting the JVM from a shutdown hook, so a requested stop
 * ends with exit code 0 (not 143/130) and a supervisor can tell it from a crash.
 */
final class StopSignals {

    private static final System.Logger LOG = System.getLogger(StopSignals.class.getName());

    private StopSignals() {
    }

    /** @return counted down on the first SIGTERM or SIGINT */
    static CountDownLatch install() {
        CountDownLatch stopRequested = new CountDownLatch(1);
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                Signal.handle(new Signal(name), signal -> {
                    LOG.log(Level.INFO, "SIG{0} received; stopping", name);
                    stopRequested.countDown();
                });
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // E.g. -Xrs, or a platform without this signal: the JVM's default handling (shutdown hook) remains.
                LOG.log(Level.DEBUG, "Cannot handle SIG" + name + "; the shutdown hook stops the platform", e);
            }
        }
        return stopRequested;
    }
}
