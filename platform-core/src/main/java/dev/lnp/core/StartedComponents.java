package dev.lnp.core;

import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What the platform has started so far, as one stack: each component is pushed once it runs, and closing pops
 * them all, the last started first, on shutdown as after a start that failed halfway. A component that fails to
 * close is logged and the rest are still closed.
 */
final class StartedComponents implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(StartedComponents.class.getName());

    private record Started(String name, AutoCloseable closer) {
    }

    private final Deque<Started> stack = new ArrayDeque<>();

    /** Pushes a started component; returns it, so that starting and pushing read as one line. */
    synchronized <T extends AutoCloseable> T push(String name, T component) {
        stack.push(new Started(name, component));
        return component;
    }

    /** Pushes how to stop something that is not itself closeable (a plugin, a server). */
    synchronized void pushStop(String name, AutoCloseable stop) {
        stack.push(new Started(name, stop));
    }

    /** Closes everything pushed, last first; empty afterwards, so a second call does nothing. */
    @Override
    public synchronized void close() {
        while (!stack.isEmpty()) {
            Started started = stack.pop();
            try {
                started.closer().close();
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                LOG.log(Level.WARNING, "Closing " + started.name() + " failed; closing the rest", e);
            }
        }
    }
}
