package dev.lnp.core.limits;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * Records every authenticated request (connection, route, status, latency) without slowing it down: requests
 * only enqueue, and a {@link BatchedWriter} writes batches. Key material never reaches it.
 */
public final class AuditLog implements AutoCloseable {

    public record Entry(Instant at, String requestId, UUID workspaceId, UUID connectionId, String surface,
            String method, String route, int status, double latencyMs) {
    }

    private final BatchedWriter<Entry> writer;

    public AuditLog(Jdbi jdbi) {
        this.writer = new BatchedWriter<>("audit", batch -> write(jdbi, batch));
    }

    public void record(Entry entry) {
        writer.add(entry);
    }

    private static void write(Jdbi jdbi, List<Entry> batch) {
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
                        .bind("latency", BigDecimal.valueOf(e.latencyMs()).setScale(3, RoundingMode.HALF_UP))
                        .add();
            }
            insert.execute();
        });
    }

    /** Writes what is queued, then stops. */
    @Override
    public void close() {
        writer.close();
    }
}
