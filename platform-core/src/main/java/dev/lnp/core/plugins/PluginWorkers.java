package dev.lnp.core.plugins;

import dev.lnp.api.PluginContext;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the plugins' declared workers ({@link dev.lnp.api.Registrar#worker}), one virtual thread each: a run, then
 * the worker's interval, again until closed. A run that throws is logged with its plugin and worker and the next
 * one still comes; closing interrupts every worker and waits for the runs in progress to end.
 */
public final class PluginWorkers implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(PluginWorkers.class.getName());
    /** How long closing waits for a run that does not end when interrupted. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);

    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean closed;

    private PluginWorkers() {
    }

    /** Starts every declared worker; the intervals are read from {@code context} now, once. */
    public static PluginWorkers start(PluginRegistry registry, PluginContext context) {
        List<PluginRegistry.PluginWorker> workers = registry.workers();
        List<Duration> intervals = new ArrayList<>();
        for (PluginRegistry.PluginWorker worker : workers) {
            Duration interval = worker.interval().apply(context);
            if (interval == null || interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException(worker.pluginId() + ": worker " + worker.name()
                        + " needs a positive interval, not " + interval);
            }
            intervals.add(interval);
        }
        PluginWorkers running = new PluginWorkers();
        for (int i = 0; i < workers.size(); i++) {
            PluginRegistry.PluginWorker worker = workers.get(i);
            Duration interval = intervals.get(i);
            running.threads.add(Thread.ofVirtual().name(worker.pluginId() + "-" + worker.name())
                    .start(() -> running.loop(worker, interval, context)));
        }
        return running;
    }

    private void loop(PluginRegistry.PluginWorker worker, Duration interval, PluginContext context) {
        while (!closed) {
            try {
                worker.task().run(context);
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (closed) {
                    return;
                }
                LOG.log(Level.WARNING, "Worker " + worker.name() + " of plugin " + worker.pluginId()
                        + " failed; it runs again in " + interval, e);
            }
            try {
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        threads.forEach(Thread::interrupt);
        for (Thread thread : threads) {
            try {
                if (!thread.join(STOP_WAIT)) {
                    LOG.log(Level.WARNING, "Worker thread " + thread.getName() + " did not end within " + STOP_WAIT);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
