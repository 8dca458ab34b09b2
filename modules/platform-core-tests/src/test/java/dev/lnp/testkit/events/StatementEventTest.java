package dev.lnp.testkit.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.Json;
import dev.lnp.api.events.StatementEvent;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.core.db.WorkspaceTransactions;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.mapper.RowMapper;
import org.junit.jupiter.api.Test;

/**
 * An event written by the change's own statement ({@code EventPublisher.inStatement}): checked name, canonical
 * name stored, one row per source row in the statement's transaction, and the payload limit refusing the whole
 * transaction.
 */
@PlatformTest(plugins = "probe", config = "lnp.webhooks.dispatch=false")
class StatementEventTest {

    private static final RowMapper<Integer> NUMBER = (rs, ctx) -> rs.getInt("i");

    /** Two source rows, one event each; answers the source rows through the event's size check. */
    private static List<Integer> twoEvents(WorkspaceTransactions transactions, UUID ws, String name, String pad) {
        return transactions.inWorkspace(ws, tx -> {
            StatementEvent event = tx.events().inStatement(name);
            return event.bind(tx.handle().createQuery("WITH src AS (SELECT i FROM (VALUES (1), (2)) AS v (i)), event AS ("
                            + event.step("src", "jsonb_build_object('i', i, 'pad', CAST(:pad AS text))") + ") SELECT src.*, "
                            + event.sizeOf("event") + " FROM src ORDER BY i"))
                    .bind("pad", pad).map(event.checked(NUMBER)).list();
        });
    }

    private static List<String> outbox(TestPlatform platform, UUID ws) {
        return platform.jdbi().withHandle(h -> h.createQuery(
                        "SELECT event_name || ' ' || payload::text FROM lnp_core.outbox WHERE workspace_id = :ws ORDER BY seq")
                .bind("ws", ws).mapTo(String.class).list());
    }

    @Test
    void theStatementWritesOneEventPerSourceRowUnderTheCanonicalName(TestPlatform platform) {
        UUID ws = platform.createWorkspace("statement-events");
        var transactions = new WorkspaceTransactions(platform.jdbi(), platform.platform().registry());
        assertEquals(List.of(1, 2), twoEvents(transactions, ws, "burst.legacy", "x"));
        assertEquals(List.of("probe.burst {\"i\": 1, \"pad\": \"x\"}", "probe.burst {\"i\": 2, \"pad\": \"x\"}"),
                outbox(platform, ws));
        assertEquals(Json.parse("{\"i\":1,\"pad\":\"x\"}"), Json.parse(outbox(platform, ws).get(0).substring(12)));
    }

    @Test
    void anUnregisteredEventIsRefusedBeforeAnyStatement(TestPlatform platform) {
        UUID ws = platform.createWorkspace("statement-events-unknown");
        var transactions = new WorkspaceTransactions(platform.jdbi(), platform.platform().registry());
        var failure = assertThrows(IllegalArgumentException.class,
                () -> transactions.inWorkspace(ws, tx -> tx.events().inStatement("probe.never")));
        assertTrue(failure.getMessage().contains("probe.never is not registered"), failure.getMessage());
    }

    @Test
    void anEventOutsideAWorkspaceIsRefused(TestPlatform platform) {
        var transactions = new WorkspaceTransactions(platform.jdbi(), platform.platform().registry());
        assertThrows(IllegalStateException.class,
                () -> transactions.outsideWorkspace(tx -> tx.events().inStatement("probe.burst")));
    }

    @Test
    void anEventOverTheLimitRollsTheWholeStatementBack(TestPlatform platform) {
        UUID ws = platform.createWorkspace("statement-events-limit");
        // {"i": 1, "pad": "…"} is 19 bytes of text around the pad: 61 bytes of pad fit in 80, 62 do not.
        var transactions = new WorkspaceTransactions(platform.jdbi(), platform.platform().registry(), 80);
        assertEquals(List.of(1, 2), twoEvents(transactions, ws, "probe.burst", "p".repeat(61)));
        assertEquals(2, outbox(platform, ws).size());

        var refused = assertThrows(ApiProblem.class, () -> twoEvents(transactions, ws, "probe.burst", "p".repeat(62)));
        assertEquals(413, refused.status());
        assertEquals("payload_too_large", refused.code());
        assertTrue(refused.getMessage().contains("probe.burst event of 81 bytes"), refused.getMessage());
        assertEquals(2, outbox(platform, ws).size(), "neither event of the refused statement was kept");
    }
}
