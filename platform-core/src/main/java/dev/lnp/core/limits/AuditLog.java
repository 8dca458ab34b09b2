package dev.lnp.core.limits;

import java.lang.System.Logger.Level;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Jdbi;

/**
 * Records every authenticated request (connection, route, status, latency) without slowing it down: requests
 * only enqueue, and one background thread writes batches. Key material never reaches it. If the queue is
 * full (the database is down for long), entries are dropped and counted rather than blocking requests.
 */
public final class AuditLog implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(AuditLog.class.getName());
    private static final int CAPACITY = 100_000;

    public record Entry(Instant at, String requestId, UUID workspaceId, UUID connectionId, String surface,
            String method, String route, int status, double latencyMs) {
    }

    private final Jdbi jdbi;
    private final LinkedBlockingQueue<Entry> queue = new LinkedBlockingQueue<>(CAPACITY);
    private final Thread writer;
    private volatile boolean running = true;
    private long dropped;

    public AuditLog(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.writer = Thread.ofVirtual().name("lnp-audit-writer").start(this::run);
    }

    public void record(Entry entry) {
        if (!queue.offer(entry)) {
            synchronized (this) {
                dropped++;
            }
        }
    }

    private void run() {
        List<Entry> batch = new ArrayList<>(1000);
        while (running || !queue.isEmpty()) {
            try {
                Entry first = queue.poll(500, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, 999);
                write(batch);
            } catch (InterruptedException e) {
                running = false;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Could not write " + batch.size() + " audit entries; dropped", e);
            }
            batch.clear();
        }
    }

    private void write(List<Entry> batch) {
        jdbi.useHandle(h -> {
            var insert = h.prepareBatch("""
                    INSERT INTO lnp_core.audit_log
                           (at, request_id, workspace_id, connection_id, surface, method, route, status, latency_ms)
                    VALUES (:at, :rid, :ws, :conn, :surface, :method, :route, :status, :latency)
                    """);
            for (Entry e : batch) {
                insert.bind("at", e.at()).bind("rid", e.requestId()).bind("ws", e.workspaceId())
                        .bind("conn", e.connectionId()).bind("surface", e.surface()).bind("method", e.method())
                        .bind("route", e.route()).bind("status", e.status())
                        .bind("latency", BigDecimal.valueOf(e.latencyMs()).setScale(3, java.math.RoundingMode.HALF_UP))
                        .add();
            }
            insert.execute();
        });
    }

    /** Writes what is queued, then stops. */
    @Override
    public void close() {
        running = false;
        try {
            writer.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (dropped > 0) {
            LOG.log(Level.WARNING, "{0} audit entries were dropped while the database was unavailable", dropped);
        }
    }
}
