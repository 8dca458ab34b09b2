package dev.lnp.core;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a start's time goes: each phase of {@link Platform#start} with its milliseconds, and the time the process
 * had already run before it (JVM start, class loading, configuration, plugin discovery). Logged at DEBUG
 * ({@code lnp.log.level=FINE}) with the ready line; docs/performance.md reads it.
 */
final class StartupPhases {

    private final long before;
    private long last = System.nanoTime();
    private final List<String> phases = new ArrayList<>();

    StartupPhases() {
        // Since the JVM started (the JVM's own clock: the process start time Linux reports is rounded to the
        // second): covers the JVM, the AOT cache, configuration and plugin loading.
        before = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime();
    }

    /** Ends the phase running since the previous mark (or the start) and names it. */
    void mark(String phase) {
        long now = System.nanoTime();
        phases.add(phase + " " + (now - last) / 1_000_000 + " ms");
        last = now;
    }

    String summary() {
        return "before Platform.start (JVM, configuration, plugin loading) " + (before < 0 ? "?" : before + " ms")
                + "; " + String.join("; ", phases);
    }
}
