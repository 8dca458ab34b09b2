package dev.lnp.server;

import java.lang.System.Logger.Level;

/**
 * Builds what Helidon's web server needs before its first route, on a thread of its own while the platform loads
 * plugins and reads its database: the routing's path matchers pull in Helidon's global service registry (its
 * metadata read from every module and its mappers bound), which on the main thread was about a fifth of a
 * restart. Class initialisation is once per JVM and thread-safe, so the server start either finds it done or
 * waits for the warm-up to finish it; it never runs twice.
 */
public final class ServerWarmUp {

    private static final System.Logger LOG = System.getLogger(ServerWarmUp.class.getName());

    private ServerWarmUp() {
    }

    /** Starts the warm-up; a daemon, so a stop during start-up never waits for it. */
    public static Thread start() {
        return start(() -> io.helidon.http.PathMatchers.any());
    }

    static Thread start(Runnable work) {
        return Thread.ofPlatform().name("lnp-server-warm-up").daemon().start(() -> {
            try {
                work.run();
            } catch (RuntimeException | LinkageError e) {
                // Only a head start: the server's own start meets the same failure and reports it there.
                LOG.log(Level.DEBUG, "Server warm-up failed", e);
            }
        });
    }
}
