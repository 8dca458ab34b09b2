package dev.lnp.server;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Tells when a listener of the web server has stopped accepting connections on its own.
 *
 * <p>When accepting a connection fails (the process is out of file descriptors, say), Helidon 4.5 logs that "this
 * server socket is terminating now", closes the listening socket and leaves the process running without it: the
 * port is gone for good and a supervisor sees nothing wrong. Helidon offers no callback for it, and its listener
 * thread never finishes (it waits for itself), so the one sign is that log record. The platform turns it into a
 * stop with a non-zero exit, so that the supervisor starts it again.
 *
 * <p>A record does not say which server it came from; one platform runs in a process, so every server watching is
 * told (several servers share a process only in tests).
 */
final class ListenerFailures {

    /** Held strongly: java.util.logging forgets the handlers of a logger nobody references. */
    private static final Logger HELIDON_LISTENER = Logger.getLogger("io.helidon.webserver.ServerListener");
    private static final String TERMINATING = "this server socket is terminating";
    private static final Set<CompletableFuture<String>> WATCHING = new CopyOnWriteArraySet<>();

    static {
        HELIDON_LISTENER.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.SEVERE.intValue() && record.getMessage() != null
                        && record.getMessage().contains(TERMINATING)) {
                    String cause = record.getThrown() == null ? "unknown cause"
                            : String.valueOf(record.getThrown().getMessage());
                    // Helidon names the thread after its socket: server-@default-listener, server-management-listener.
                    String socket = Thread.currentThread().getName().replaceFirst("^server-(.*)-listener$", "$1");
                    String listener = "@default".equals(socket) ? "HTTP" : socket;
                    WATCHING.forEach(failure -> failure.complete("the " + listener + " listener: " + cause));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
    }

    private ListenerFailures() {
    }

    /** @return completed with the listener and the cause ({@code the HTTP listener: Too many open files}) when a listener ends on its own */
    static CompletableFuture<String> watch() {
        CompletableFuture<String> failure = new CompletableFuture<>();
        WATCHING.add(failure);
        failure.whenComplete((cause, error) -> WATCHING.remove(failure));
        return failure;
    }

    /** Stops watching for a server that stops. */
    static void unwatch(CompletableFuture<String> failure) {
        WATCHING.remove(failure);
    }
}
