package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.core.db.SqlStates;
import dev.lnp.core.db.WorkspaceTransactions;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.RateWindows;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.junit.jupiter.api.Test;

/**
 * A call's transaction begins with its opening statement (workspace, tenant role, cached admission's version),
 * sent before any work: whatever the work does with its connection runs as the tenant in its workspace. A cached
 * admission found stale rolls the transaction back before the work runs, and the call is admitted again from the
 * database.
 */
@PlatformTest(plugins = "probe")
class TransactionOpeningTest {

    private static final String WHO = "SELECT current_setting('lnp.workspace_id', true) || ' ' || current_user";

    private static WorkspaceTransactions transactions(TestPlatform platform) {
        return new WorkspaceTransactions(platform.jdbi(), platform.platform().registry());
    }

    @Test
    void theWorkRunsAsTheTenantInItsWorkspace(TestPlatform platform) {
        UUID ws = platform.createWorkspace("opening who");
        assertEquals(ws + " lnp_tenant", transactions(platform).inWorkspace(ws,
                tx -> tx.handle().createQuery(WHO).mapTo(String.class).one()));
    }

    @Test
    void theConnectionUsedDirectlyIsOpenedToo(TestPlatform platform) {
        UUID ws = platform.createWorkspace("opening raw");
        assertEquals(ws + " lnp_tenant", transactions(platform).inWorkspace(ws, tx -> {
            try (Statement statement = tx.handle().getConnection().createStatement();
                    ResultSet row = statement.executeQuery(WHO)) {
                row.next();
                return row.getString(1);
            }
        }));
    }

    @Test
    void aFailingStatementRollsBackAndLeavesThePoolClean(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("opening failure");
        var transactions = transactions(platform);
        var failure = assertThrows(UnableToExecuteStatementException.class, () -> transactions.inWorkspace(ws,
                tx -> tx.handle().createQuery("SELECT 1 / (SELECT count(*) FROM probe.items)")
                        .mapTo(Integer.class).one()));
        assertEquals("22012", SqlStates.find(failure, state -> true));
        for (int i = 0; i < 20; i++) {
            assertEquals(" postgres true", platform.jdbi().withHandle(h -> h.createQuery(
                    "SELECT coalesce(current_setting('lnp.workspace_id', true), '') || ' ' || current_user")
                    .mapTo(String.class).one() + " " + h.getConnection().getAutoCommit()), "pooled connection " + i);
        }
    }

    /** A GET that writes (a plugin's mistake) runs in a transaction like any other call: its write is kept, once. */
    @Test
    void aGetThatWritesStoresItsItemOnce(TestPlatform platform) {
        UUID ws = platform.createWorkspace("opening get writes");
        String key = platform.fullAccessKey(ws);
        TestResponse answer = platform.get("/api/v1/probe/writing-read?name=written", key);
        assertEquals(200, answer.status(), answer.body());
        assertEquals(1, answer.data().path("runs").asInt(), answer.body());
        JsonNode tool = Json.mapper().valueToTree(
                platform.callTool(key, "probe_writing_read", "{\"name\":\"tool written\"}").data());
        assertEquals(1, tool.path("runs").asInt(), tool.toString());
        assertEquals(List.of("tool written", "written"), platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT name FROM probe.items WHERE workspace_id = :ws ORDER BY name").bind("ws", ws)
                .mapTo(String.class).list()));
    }

    /** A reader's key whose reads of {@code path} are admitted from the node's cache after the first two. */
    private static dev.lnp.core.auth.Connections.Issued cachedReader(TestPlatform platform, String name, String path) {
        RateWindows.stayInOneMinute(10);
        UUID ws = platform.createWorkspace(name);
        var issued = platform.connections().create(new dev.lnp.core.auth.Connections.NewConnection(ws, "reader",
                List.of("probe.read"), null, null, null));
        for (int i = 0; i < 3; i++) {
            assertEquals(200, platform.get(path, issued.key()).status());
        }
        return issued;
    }

    /**
     * A write admitted from the cache is checked before its handler runs: the probe's conflicts route counts its
     * handler's runs per name before its first statement, so a handler that ran under the revoked key would show
     * as a second run when a valid key writes the same name.
     */
    @Test
    void aCachedWriteIsCheckedBeforeItsHandlerRuns(TestPlatform platform) {
        RateWindows.stayInOneMinute(10);
        UUID ws = platform.createWorkspace("opening cached write");
        var issued = platform.connections().create(new dev.lnp.core.auth.Connections.NewConnection(ws, "writer",
                List.of("probe.write"), null, null, null));
        for (int i = 0; i < 3; i++) {
            assertEquals(201, platform.post("/api/v1/probe/conflicts", issued.key(),
                    "{\"name\": \"cached write " + i + "\"}").status());
        }
        long cachedBefore = platform.admissions("cache");
        assertEquals(201, platform.post("/api/v1/probe/conflicts", issued.key(), "{\"name\": \"cached write 3\"}")
                .status());
        assertEquals(1, platform.admissions("cache") - cachedBefore, "the write was admitted from the cache");

        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.connections SET revoked_at = now() WHERE id = ?",
                issued.connectionId()));
        TestResponse refused = platform.post("/api/v1/probe/conflicts", issued.key(),
                "{\"name\": \"after revocation\"}");
        assertEquals(401, refused.status(), refused.body());
        TestResponse first = platform.post("/api/v1/probe/conflicts", platform.fullAccessKey(ws),
                "{\"name\": \"after revocation\"}");
        assertEquals(1, first.data().path("runs").asInt(), "the revoked key's handler never ran: " + first.body());
    }

    /**
     * A cached admission made stale by a change that leaves the key valid (another connection of the workspace
     * revoked) is admitted again from the database, and the handler runs once, in the transaction run again.
     */
    @Test
    void aStaleButValidAdmissionRunsItsHandlerOnce(TestPlatform platform) {
        RateWindows.stayInOneMinute(10);
        UUID ws = platform.createWorkspace("opening stale valid");
        var writer = platform.connections().create(new dev.lnp.core.auth.Connections.NewConnection(ws, "writer",
                List.of("probe.write"), null, null, null));
        var other = platform.connections().create(new dev.lnp.core.auth.Connections.NewConnection(ws, "other",
                List.of("probe.read"), null, null, null));
        for (int i = 0; i < 3; i++) {
            assertEquals(201, platform.post("/api/v1/probe/conflicts", writer.key(),
                    "{\"name\": \"stale valid " + i + "\"}").status());
        }
        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.connections SET revoked_at = now() WHERE id = ?",
                other.connectionId()));
        long staleBefore = platform.admissions("cache_stale");
        TestResponse written = platform.post("/api/v1/probe/conflicts", writer.key(), "{\"name\": \"stale valid\"}");
        assertEquals(201, written.status(), written.body());
        assertEquals(1, written.data().path("runs").asInt(), written.body());
        assertEquals(1, platform.admissions("cache_stale") - staleBefore, "the cached admission was found stale");
    }

    @Test
    void aCachedReadWithoutStatementsIsStillChecked(TestPlatform platform) {
        var issued = cachedReader(platform, "opening whoami", "/api/v1/probe/whoami");
        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.connections SET revoked_at = now() WHERE id = ?",
                issued.connectionId()));
        TestResponse answer = platform.get("/api/v1/probe/whoami", issued.key());
        assertEquals(401, answer.status(), answer.body());
        assertEquals("revoked_key", answer.json().path("code").asText());
    }

    /** The check comes before the handler: a handler that hides its statements' failures cannot hide it. */
    @Test
    void aStaleAdmissionIsRefusedBeforeTheHandlerRuns(TestPlatform platform) {
        var issued = cachedReader(platform, "opening careless", "/api/v1/probe/careless-count");
        assertEquals(0, platform.get("/api/v1/probe/careless-count", issued.key()).data().path("count").asLong());
        long staleBefore = platform.admissions("cache_stale");
        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.connections SET revoked_at = now() WHERE id = ?",
                issued.connectionId()));
        TestResponse answer = platform.get("/api/v1/probe/careless-count", issued.key());
        assertEquals(401, answer.status(), answer.body());
        assertEquals("revoked_key", answer.json().path("code").asText());
        assertTrue(platform.admissions("cache_stale") - staleBefore >= 1);
        assertFalse(answer.body().contains("count"), answer.body());
    }
}
