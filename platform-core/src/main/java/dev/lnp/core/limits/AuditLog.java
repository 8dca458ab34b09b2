package dev.lnp.core.limits;

import dev.lnp.database.batch.BatchedWriter;
import dev.lnp.database.batch.ColumnsInsert;
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

    private static final ColumnsInsert<Entry> INSERT = new ColumnsInsert<>("lnp_core.audit_log", List.of(
            new ColumnsInsert.Column<>("at", "timestamptz", e -> e.at().toString()),
            new ColumnsInsert.Column<>("request_id", "text", Entry::requestId),
            new ColumnsInsert.Column<>("workspace_id", "uuid", e -> e.workspaceId().toString()),
            new ColumnsInsert.Column<>("connection_id", "uuid", e -> e.connectionId().toString()),
            new ColumnsInsert.Column<>("surface", "text", Entry::surface),
            new ColumnsInsert.Column<>("method", "text", Entry::method),
            new ColumnsInsert.Column<>("route", "text", Entry::route),
            new ColumnsInsert.Column<>("status", "integer", e -> Integer.toString(e.status())),
            new ColumnsInsert.Column<>("latency_ms", "numeric", e -> milliseconds(e.latencyMs()))));

    private static void write(Jdbi jdbi, List<Entry> batch) {
        INSERT.write(jdbi, batch);
    }

    /** A duration as the audit tables keep it: milliseconds to three decimals. */
    static String milliseconds(double ms) {
        return BigDecimal.valueOf(ms).setScale(3, RoundingMode.HALF_UP).toPlainString();
    }

    /** Records waiting to be written, for the metrics. */
    public int queued() {
        return writer.queued();
    }

    /** Records dropped since start (refused by the database, or arriving while the queue was full), for the metrics. */
    public long dropped() {
        return writer.dropped();
    }

    /** Writes what is queued, then stops. */
    @Override
    public void close() {
        writer.close();
    }
}
