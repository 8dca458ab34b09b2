package dev.lnp.core.limits;

import dev.lnp.database.batch.BatchedWriter;
import dev.lnp.database.batch.ColumnsInsert;
import dev.lnp.api.Json;
import dev.lnp.api.http.Page;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.internal.mcp.ToolCallFilter;
import dev.lnp.api.internal.mcp.ToolCallPage;
import dev.lnp.api.internal.mcp.ToolCallRecord;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The tool-call audit ({@code lnp_core.tool_calls}): recorded off the request path in batches, listed per
 * workspace inside the request's own transaction (row-level security applies to the request role).
 */
public final class ToolCallLog implements AutoCloseable {

    /** A call to record; {@code errorCode} is null when it succeeded. */
    public record Entry(Instant at, String requestId, UUID workspaceId, UUID connectionId, String endpoint,
            String tool, String outcome, String errorCode, double durationMs, List<EntityRef> entities) {
    }

    private final BatchedWriter<Entry> writer;

    public ToolCallLog(Jdbi jdbi) {
        this.writer = new BatchedWriter<>("tool-call-audit", batch -> write(jdbi, batch));
    }

    /**
     * Queues a call for the audit. Its texts come from the caller (a tool name may be anything): a NUL, which
     * PostgreSQL cannot store in text, is kept visible as U+FFFD so that input can never make a record unwritable.
     */
    public void record(Entry entry) {
        writer.add(new Entry(entry.at(), storable(entry.requestId()), entry.workspaceId(), entry.connectionId(),
                storable(entry.endpoint()), storable(entry.tool()), entry.outcome(), storable(entry.errorCode()),
                entry.durationMs(), entry.entities()));
    }

    static String storable(String text) {
        return text == null ? null : text.replace('\u0000', '\uFFFD');
    }

    private static final ColumnsInsert<Entry> INSERT = new ColumnsInsert<>("lnp_core.tool_calls", List.of(
            new ColumnsInsert.Column<>("at", "timestamptz", e -> e.at().toString()),
            new ColumnsInsert.Column<>("request_id", "text", Entry::requestId),
            new ColumnsInsert.Column<>("workspace_id", "uuid", e -> e.workspaceId().toString()),
            new ColumnsInsert.Column<>("connection_id", "uuid", e -> e.connectionId().toString()),
            new ColumnsInsert.Column<>("endpoint", "text", Entry::endpoint),
            new ColumnsInsert.Column<>("tool", "text", Entry::tool),
            new ColumnsInsert.Column<>("outcome", "text", Entry::outcome),
            new ColumnsInsert.Column<>("error_code", "text", Entry::errorCode),
            new ColumnsInsert.Column<>("duration_ms", "numeric", e -> AuditLog.milliseconds(e.durationMs())),
            // Columns of their own; `entity_groups` and `entities` keep the rows older versions wrote.
            new ColumnsInsert.Column<>("entity_kinds", "jsonb", e -> EntityGroups.kinds(e.entities())),
            ColumnsInsert.Column.bytes("entity_ids", e -> EntityGroups.ids(e.entities()))));

    private static void write(Jdbi jdbi, List<Entry> batch) {
        INSERT.write(jdbi, batch);
    }

    /** A page of one workspace's calls, newest first, read through {@code handle} (the request's transaction). */
    public static ToolCallPage list(Handle handle, UUID workspaceId, ToolCallFilter filter) {
        String where = """
                 WHERE workspace_id = :ws
                   AND (CAST(:tool AS text) IS NULL OR tool = CAST(:tool AS text))
                   AND (CAST(:outcome AS text) IS NULL OR outcome = CAST(:outcome AS text))
                   AND (CAST(:conn AS uuid) IS NULL OR connection_id = CAST(:conn AS uuid))
                """;
        long total = handle.createQuery("SELECT count(*) FROM lnp_core.tool_calls" + where)
                .bind("ws", workspaceId).bind("tool", filter.tool().orElse(null))
                .bind("outcome", filter.outcome().orElse(null)).bind("conn", filter.connectionId().orElse(null))
                .mapTo(Long.class).one();
        List<ToolCallRecord> items = handle.createQuery("""
                        SELECT id, at, request_id, connection_id, endpoint, tool, outcome, error_code, duration_ms,
                               entity_kinds::text AS entity_kinds, entity_ids,
                               entity_groups::text AS entity_groups, entities::text AS entities
                          FROM lnp_core.tool_calls""" + where + """
                         ORDER BY at DESC, id DESC
                        """ + filter.page().limitClause())
                .bind("ws", workspaceId).bind("tool", filter.tool().orElse(null))
                .bind("outcome", filter.outcome().orElse(null)).bind("conn", filter.connectionId().orElse(null))
                .map((rs, ctx) -> new ToolCallRecord(rs.getLong("id"), rs.getTimestamp("at").toInstant(),
                        rs.getString("request_id"), rs.getObject("connection_id", UUID.class),
                        rs.getString("endpoint"), rs.getString("tool"), rs.getString("outcome"),
                        rs.getString("error_code"), rs.getBigDecimal("duration_ms").doubleValue(),
                        entities(rs.getString("entity_kinds"), rs.getBytes("entity_ids"),
                                rs.getString("entity_groups"), rs.getString("entities"))))
                .list();
        return new ToolCallPage(items, Page.of(filter.page(), total));
    }

    /**
     * A row's refs: its kinds and ids, or for a row an older version wrote, its groups (migration V13_35) or
     * one object per ref (before that).
     */
    private static List<EntityRef> entities(String kinds, byte[] ids, String groups, String json) {
        if (ids != null) {
            return EntityGroups.read(kinds, ids);
        }
        if (groups != null) {
            return EntityGroups.readGrouped(groups);
        }
        try {
            return List.of(Json.mapper().readValue(json, EntityRef[].class));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("unreadable entities in the tool-call audit", e);
        }
    }

    /** Records waiting to be written, for the metrics. */
    public int queued() {
        return writer.queued();
    }

    /** Records dropped since start (refused by the database, or arriving while the queue was full), for the metrics. */
    public long dropped() {
        return writer.dropped();
    }

    @Override
    public void close() {
        writer.close();
    }
}
