package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.mcp.EntityRef;
import dev.lnp.core.limits.AuditLog;
import dev.lnp.core.limits.ToolCallLog;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The audit writers insert a whole batch with one statement (every column an array): what a row holds must be
 * exactly what was recorded (time to the microsecond, durations to three decimals, NULLs, JSON), and a record
 * the database refuses costs only itself.
 */
@PlatformTest(plugins = {})
class AuditWritersTest {

    private static final Instant AT = Instant.parse("2026-11-24T00:15:30.123456789Z");

    @Test
    void anAuditRowHoldsWhatWasRecorded(TestPlatform platform) {
        UUID ws = UUID.randomUUID();
        UUID conn = UUID.randomUUID();
        try (AuditLog log = new AuditLog(platform.jdbi())) {
            log.record(new AuditLog.Entry(AT, "req-1", ws, conn, "rest", "GET", "/api/v1/x", 200, 12.3456));
            log.record(new AuditLog.Entry(AT.plusSeconds(1), "req-2", ws, conn, "mcp", "POST", "/api/mcp", 503,
                    0.0004));
        }
        List<Map<String, Object>> rows = platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT * FROM lnp_core.audit_log WHERE connection_id = :c ORDER BY request_id")
                .bind("c", conn).mapToMap().list());
        assertEquals(2, rows.size(), rows.toString());
        Map<String, Object> first = rows.get(0);
        assertMicrosecond(AT, first.get("at"));
        assertEquals("req-1", first.get("request_id"));
        assertEquals(ws, first.get("workspace_id"));
        assertEquals("rest", first.get("surface"));
        assertEquals("GET", first.get("method"));
        assertEquals("/api/v1/x", first.get("route"));
        assertEquals(200, first.get("status"));
        assertEquals(new BigDecimal("12.346"), first.get("latency_ms"));
        assertEquals(503, rows.get(1).get("status"));
        assertEquals(new BigDecimal("0.000"), rows.get(1).get("latency_ms"));
    }

    @Test
    void aToolCallRowHoldsWhatWasRecordedAndARefusedRecordCostsOnlyItself(TestPlatform platform) {
        UUID ws = UUID.randomUUID();
        UUID conn = UUID.randomUUID();
        UUID contact = UUID.randomUUID();
        try (ToolCallLog log = new ToolCallLog(platform.jdbi())) {
            log.record(new ToolCallLog.Entry(AT, "call-1", ws, conn, "/api/mcp", "crm_get\u0000contact", "ok", null,
                    1.5, List.of(new EntityRef("contact", contact, "read"))));
            // The table's CHECK refuses this outcome: the batch is retried record by record.
            log.record(new ToolCallLog.Entry(AT, "call-2", ws, conn, "/api/mcp", "t", "no such outcome", null, 1,
                    List.of()));
            log.record(new ToolCallLog.Entry(AT, "call-3", ws, conn, "/api/mcp/tools/call", "t", "denied",
                    "tool_denied", 2.25, List.of()));
        }
        List<Map<String, Object>> rows = platform.jdbi().withHandle(h -> h.createQuery("""
                        SELECT request_id, at, tool, outcome, error_code, duration_ms,
                               entity_kinds::text AS entity_kinds, entity_ids, entity_groups::text AS entity_groups,
                               entities::text AS entities
                          FROM lnp_core.tool_calls WHERE connection_id = :c ORDER BY request_id""")
                .bind("c", conn).mapToMap().list());
        assertEquals(List.of("call-1", "call-3"), rows.stream().map(r -> r.get("request_id")).toList());
        Map<String, Object> ok = rows.get(0);
        assertMicrosecond(AT, ok.get("at"));
        assertEquals("crm_get\uFFFDcontact", ok.get("tool"), "a NUL is stored as the replacement character");
        assertNull(ok.get("error_code"));
        assertEquals(new BigDecimal("1.500"), ok.get("duration_ms"));
        assertEquals("[{\"type\": \"contact\", \"count\": 1, \"action\": \"read\"}]", ok.get("entity_kinds"));
        java.nio.ByteBuffer id = java.nio.ByteBuffer.wrap((byte[]) ok.get("entity_ids"));
        assertEquals(contact, new UUID(id.getLong(), id.getLong()));
        assertEquals(0, id.remaining());
        assertNull(ok.get("entity_groups"), "the column versions of 25 November 2026 wrote stays NULL");
        assertEquals("[]", ok.get("entities"), "the column older versions write keeps its default");
        assertEquals("tool_denied", rows.get(1).get("error_code"));
        assertEquals("[]", rows.get(1).get("entity_kinds"));
        assertEquals(0, ((byte[]) rows.get(1).get("entity_ids")).length);
    }

    private static void assertMicrosecond(Instant expected, Object stored) {
        Instant at = stored instanceof OffsetDateTime odt ? odt.toInstant() : ((java.sql.Timestamp) stored).toInstant();
        assertTrue(Duration.between(expected, at).abs().toNanos() < 1_000, expected + " stored as " + at);
    }
}
