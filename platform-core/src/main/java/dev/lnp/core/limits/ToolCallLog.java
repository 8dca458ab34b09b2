package dev.lnp.core.limits;

import dev.lnp.api.Json;
import dev.lnp.api.http.Page;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.internal.mcp.ToolCallFilter;
import dev.lnp.api.internal.mcp.ToolCallPage;
import dev.lnp.api.internal.mcp.ToolCallRecord;
import java.math.BigDecimal;
import java.math.RoundingMode;
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

    private static void write(Jdbi jdbi, List<Entry> batch) {
        jdbi.useHandle(h -> {
            var insert = h.prepareBatch("""
                    INSERT INTO lnp_core.tool_calls (at, request_id, workspace_id, connection_id, endpoint, tool,
                                                     outcome, error_code, duration_ms, entities)
                    VALUES (:at, :rid, :ws, :conn, :endpoint, :tool, :outcome, :code, :ms, CAST(:entities AS jsonb))
                    """);
            for (Entry e : batch) {
                insert.bind("at", e.at()).bind("rid", e.requestId()).bind("ws", e.workspaceId())
                        .bind("conn", e.connectionId()).bind("endpoint", e.endpoint()).bind("tool", e.tool())
                        .bind("outcome", e.outcome()).bind("code", e.errorCode())
                        .bind("ms", BigDecimal.valueOf(e.durationMs()).setScale(3, RoundingMode.HALF_UP))
                        .bind("entities", entitiesJson(e.entities()))
                        .add();
            }
            insert.execute();
        });
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
                               entities::text AS entities
                          FROM lnp_core.tool_calls""" + where + """
                         ORDER BY at DESC, id DESC
                         LIMIT :limit OFFSET :offset
                        """)
                .bind("ws", workspaceId).bind("tool", filter.tool().orElse(null))
                .bind("outcome", filter.outcome().orElse(null)).bind("conn", filter.connectionId().orElse(null))
                .bind("limit", filter.page().limit()).bind("offset", filter.page().offset())
                .map((rs, ctx) -> new ToolCallRecord(rs.getLong("id"), rs.getTimestamp("at").toInstant(),
                        rs.getString("request_id"), rs.getObject("connection_id", UUID.class),
                        rs.getString("endpoint"), rs.getString("tool"), rs.getString("outcome"),
                        rs.getString("error_code"), rs.getBigDecimal("duration_ms").doubleValue(),
                        entities(rs.getString("entities"))))
                .list();
        return new ToolCallPage(items, Page.of(filter.page(), total));
    }

    /** Written straight to text (stored as jsonb): a list call names every row, so no tree of them first. */
    private static String entitiesJson(List<EntityRef> entities) {
        try {
            return Json.mapper().writeValueAsString(entities);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("entities not writable as JSON", e);
        }
    }

    private static List<EntityRef> entities(String json) {
        try {
            return List.of(Json.mapper().readValue(json, EntityRef[].class));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("unreadable entities in the tool-call audit", e);
        }
    }

    @Override
    public void close() {
        writer.close();
    }
}
