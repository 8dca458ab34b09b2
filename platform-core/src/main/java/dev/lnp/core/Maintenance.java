package dev.lnp.core;

import dev.lnp.core.limits.IdempotencyStore;
import java.lang.System.Logger.Level;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Jdbi;

/** Periodic clean-up of expired rows: rate-limit windows, idempotency keys, old audit entries and tool-call
 * records, and the subsystems' history. */
final class Maintenance implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Maintenance.class.getName());

    private final ScheduledExecutorService scheduler;

    private Maintenance(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
    }

    static Maintenance start(Jdbi jdbi, Runnable purgeHistory) {
        var scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("lnp-maintenance").factory());
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                jdbi.useHandle(h -> {
                    h.execute("DELETE FROM lnp_core.rate_windows WHERE window_start < now() - interval '5 minutes'");
                    h.execute("DELETE FROM lnp_core.audit_log WHERE at < now() - interval '90 days'");
                    h.execute("DELETE FROM lnp_core.tool_calls WHERE at < now() - interval '90 days'");
                });
                IdempotencyStore.purgeExpired(jdbi);
                purgeHistory.run();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Clean-up of expired rows failed; will retry", e);
            }
        }, 1, 60, TimeUnit.SECONDS);
        return new Maintenance(scheduler);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
