package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.PluginContext;
import dev.lnp.database.SqlStates;
import dev.lnp.core.db.WorkspaceTransactions;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.RateWindows;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.junit.jupiter.api.Test;

/**
 * A call's transaction sends its opening statement (workspace, tenant role, cached admission's version) with its
 * first statement, in one round trip, unless it is a write with a cached admission to check first; nothing reaches
 * the database before the opening, whatever the work does with its connection. A read runs in autocommit, every
 * statement with the opening and read-only, and sends no commit; one that writes runs again as a write. A cached
 * admission found stale rolls the transaction back, and the call is admitted again from the database. Round trips
 * are counted as the driver's {@code Sync} messages sent on this thread.
 */
@PlatformTest(plugins = "probe")
class TransactionOpeningTest {

    private static final String WHO = "SELECT current_setting('lnp.workspace_id', true) || ' ' || current_user";

    /** Runs {@code work} and answers its result with the round trips the driver made on this thread. */
    private static <T> Counted<T> counted(Supplier<T> work) {
        Logger driver = Logger.getLogger("org.postgresql.core.v3.QueryExecutorImpl");
        long thread = Thread.currentThread().threadId();
        AtomicInteger syncs = new AtomicInteger();
        Handler counter = new Handler() {
            @Override
            public void publish(LogRecord entry) {
                if (entry.getLongThreadID() == thread && entry.getMessage().contains("FE=> Sync")) {
                    syncs.incrementAndGet();
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Level before = driver.getLevel();
        driver.setLevel(Level.FINEST);
        driver.addHandler(counter);
        try {
            T result = work.get();
            return new Counted<>(result, syncs.get());
        } finally {
            driver.removeHandler(counter);
            driver.setLevel(before);
        }
    }

    private record Counted<T>(T result, int roundTrips) {
    }

    private static WorkspaceTransactions transactions(TestPlatform platform) {
        return new WorkspaceTransactions(platform.jdbi(), platform.platform().registry());
    }

    /** A request's transaction, admitted by the database (nothing to check), answering what the work returned. */
    private static <R> R call(WorkspaceTransactions transactions, UUID ws, boolean read,
            PluginContext.WorkspaceWork<R> work) {
        List<R> result = new java.util.ArrayList<>(1);
        assertTrue(transactions.inWorkspaceIfAdmitted(ws, null, read, tx -> result.add(work.run(tx))));
        return result.getFirst();
    }

    private static <R> R read(WorkspaceTransactions transactions, UUID ws, PluginContext.WorkspaceWork<R> work) {
        return call(transactions, ws, true, work);
    }

    private static <R> R write(WorkspaceTransactions transactions, UUID ws, PluginContext.WorkspaceWork<R> work) {
        return call(transactions, ws, false, work);
    }

    @Test
    void aCallsFirstStatementCarriesTheOpening(TestPlatform platform) {
        UUID ws = platform.createWorkspace("opening read");
        var transactions = transactions(platform);
        var read = counted(() -> read(transactions, ws, tx -> tx.handle().createQuery(WHO).mapTo(String.class).one()));
        assertEquals(ws + " lnp_tenant", read.result());
        assertEquals(1, read.roundTrips(), "the opening with the query, and no commit");

        var write = counted(() -> write(transactions, ws,
                tx -> tx.handle().createQuery(WHO).mapTo(String.class).one()));
        assertEquals(ws + " lnp_tenant", write.result());
        assertEquals(2, write.roundTrips(), "a write admitted by the database has nothing to check first");

        var own = counted(() -> transactions.inWorkspace(ws,
                tx -> tx.handle().createQuery(WHO).mapTo(String.class).one()));
        assertEquals(ws + " lnp_tenant", own.result());
        assertEquals(3, own.roundTrips(), "the platform's own work sends its opening on its own");
    }

    @Test
    void parametersAndLaterStatementsOfAReadAreTheirOwn(TestPlatform platform) {
        UUID ws = platform.createWorkspace("opening parameters");
        UUID id = UUID.randomUUID();
        var answer = read(transactions(platform), ws, tx -> List.of(
                tx.handle().createQuery("SELECT :text || ' ' || :number || ' ' || :id || ' ' || coalesce(:none, '-')"
                                + " || ' ' || cardinality(:names)")
                        .bind("text", "t").bind("number", 42L).bind("id", id).bind("none", (String) null)
                        .bindArray("names", String.class, List.of("a", "b"))
                        .mapTo(String.class).one(),
                tx.handle().createQuery(WHO).mapTo(String.class).one()));
        assertEquals(List.of("t 42 " + id + " - 2", ws + " lnp_tenant"), answer);
    }

    @Test
    void aReadsStatementsEachCarryTheOpeningAndLeaveNothingBehind(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("opening statements");
        var read = counted(() -> read(transactions(platform), ws, tx -> List.of(
                tx.handle().createQuery(WHO + " || ' ' || current_setting('transaction_read_only')")
                        .mapTo(String.class).one(),
                tx.handle().createQuery(WHO).mapTo(String.class).one())));
        assertEquals(List.of(ws + " lnp_tenant on", ws + " lnp_tenant"), read.result());
        assertEquals(2, read.roundTrips(), "one a statement, no commit");
        for (int i = 0; i < 10; i++) {
            assertEquals(" postgres off true", platform.jdbi().withHandle(h -> h.createQuery("SELECT coalesce("
                    + "current_setting('lnp.workspace_id', true), '') || ' ' || current_user || ' ' || "
                    + "current_setting('transaction_read_only')").mapTo(String.class).one() + " "
                    + h.getConnection().getAutoCommit()), "pooled connection " + i);
        }
    }

    /** A statement prepared on the connection and run several times keeps its own parameters and results. */
    @Test
    void aStatementRunAgainKeepsItsOwnParameters(TestPlatform platform) {
        UUID ws = platform.createWorkspace("opening again");
        for (boolean read : new boolean[] {true, false}) {
            var answers = call(transactions(platform), ws, read, tx -> {
                try (var statement = tx.handle().getConnection().prepareStatement(
                        "SELECT ?::text || ' ' || current_setting('lnp.workspace_id') || ' ' || current_user")) {
                    List<String> seen = new java.util.ArrayList<>();
                    for (String value : List.of("a", "b", "c", "d", "e", "f", "g")) {
                        if (value.equals("d")) {
                            statement.clearParameters();
                        }
                        statement.setString(1, value);
                        try (ResultSet row = statement.executeQuery()) {
                            row.next();
                            seen.add(row.getString(1));
                        }
                    }
                    return seen;
                }
            });
            assertEquals(List.of("a", "b", "c", "d", "e", "f", "g").stream()
                    .map(v -> v + " " + ws + " lnp_tenant").toList(), answers, "read " + read);
        }
    }

    /** Rows asked for a few at a time come through a cursor, which the driver opens only in a transaction. */
    @Test
    void aReadThatFetchesByCursorRunsInATransaction(TestPlatform platform) {
        UUID ws = platform.createWorkspace("opening cursor");
        var rows = read(transactions(platform), ws, tx -> tx.handle().createQuery(
                        "SELECT n || ' ' || current_setting('transaction_read_only') || ' ' || current_user "
                                + "FROM generate_series(1, 5) n")
                .setFetchSize(2).mapTo(String.class).list());
        assertEquals(List.of(1, 2, 3, 4, 5).stream().map(n -> n + " off lnp_tenant").toList(), rows);
    }

    /** A read that asks for a snapshot across its statements gets a transaction at that level. */
    @Test
    void aReadAboveReadCommittedRunsInATransaction(TestPlatform platform) {
        UUID ws = platform.createWorkspace("opening isolation");
        String seen = read(transactions(platform), ws, tx -> {
            tx.handle().getConnection().setTransactionIsolation(java.sql.Connection.TRANSACTION_REPEATABLE_READ);
            return tx.handle().createQuery("SELECT current_setting('transaction_isolation') || ' ' || "
                    + "current_setting('transaction_read_only') || ' ' || " + WHO.substring("SELECT ".length()))
                    .mapTo(String.class).one();
        });
        assertEquals("repeatable read off " + ws + " lnp_tenant", seen);
        assertEquals("read committed", platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT current_setting('transaction_isolation')").mapTo(String.class).one()),
                "the pooled connection is back at the default level");
    }

    @Test
    void aWritesFirstUpdateCountsItsRows(TestPlatform platform) {
        UUID ws = platform.createWorkspace("opening update");
        var transactions = transactions(platform);
        write(transactions, ws, tx -> tx.handle()
                .createUpdate("INSERT INTO probe.items (workspace_id, name) VALUES (:ws, 'one'), (:ws, 'two')")
                .bind("ws", ws).execute());
        var renamed = counted(() -> write(transactions, ws, tx -> tx.handle()
                .createUpdate("UPDATE probe.items SET name = name || '!'").execute()));
        assertEquals(2, renamed.result(), "only the workspace's rows, counted as the update alone would count them");
        assertEquals(2, renamed.roundTrips(), "the opening with the update, then the commit");
    }

    @Test
    void aReadThatWritesIsRefusedAndWritesNothing(TestPlatform platform) {
        UUID ws = platform.createWorkspace("opening read writes");
        var transactions = transactions(platform);
        var failure = assertThrows(UnableToExecuteStatementException.class, () -> read(transactions, ws, tx -> {
            tx.handle().createQuery(WHO).mapTo(String.class).one();
            return tx.handle().createUpdate(
                    "INSERT INTO probe.items (workspace_id, name) VALUES (:ws, 'read')").bind("ws", ws).execute();
        }));
        assertTrue(WorkspaceTransactions.readWrote(failure), failure.toString());
        assertEquals(0L, (long) platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM probe.items WHERE workspace_id = ?").bind(0, ws).mapTo(Long.class).one()));
    }

    /**
     * Over HTTP, a GET that writes is refused as a read and runs again at once as a write: its item is stored once,
     * and its route runs as a write from then on, even when the handler hides its statement's failure.
     */
    @Test
    void aGetThatWritesRunsAgainAsAWriteAndIsRemembered(TestPlatform platform) {
        UUID ws = platform.createWorkspace("opening get writes");
        String key = platform.fullAccessKey(ws);
        for (String route : List.of("writing-read", "careless-writing-read")) {
            TestResponse first = platform.get("/api/v1/probe/" + route + "?name=" + route + "-1", key);
            assertEquals(200, first.status(), first.body());
            assertEquals(2, first.data().path("runs").asInt(), "refused as a read, then run as a write: "
                    + first.body());
            assertTrue(first.data().path("hidden").isMissingNode(), first.body());
            TestResponse second = platform.get("/api/v1/probe/" + route + "?name=" + route + "-2", key);
            assertEquals(200, second.status(), second.body());
            assertEquals(1, second.data().path("runs").asInt(), "runs as a write at once: " + second.body());
            assertEquals(List.of(route + "-1", route + "-2"), platform.jdbi().withHandle(h -> h.createQuery(
                    "SELECT name FROM probe.items WHERE workspace_id = :ws AND name LIKE :route || '-%' ORDER BY name")
                    .bind("ws", ws).bind("route", route).mapTo(String.class).list()));
        }
    }

    /**
     * A tool annotated read-only that writes is treated as a GET that writes: refused as a read, run again at once as
     * a write, its item stored once, and run as a write from the next call on, also when the handler hides its
     * statement's failure.
     */
    @Test
    void aReadOnlyToolThatWritesRunsAgainAsAWriteAndIsRemembered(TestPlatform platform) {
        UUID ws = platform.createWorkspace("opening tool writes");
        String key = platform.fullAccessKey(ws);
        for (String tool : List.of("probe_writing_read", "probe_careless_writing_read")) {
            JsonNode first = Json.mapper().valueToTree(
                    platform.callTool(key, tool, "{\"name\":\"" + tool + "-1\"}").data());
            assertEquals(2, first.path("runs").asInt(), "refused as a read, then run as a write: " + first);
            assertTrue(first.path("hidden").isMissingNode(), first.toString());
            JsonNode second = Json.mapper().valueToTree(
                    platform.callTool(key, tool, "{\"name\":\"" + tool + "-2\"}").data());
            assertEquals(1, second.path("runs").asInt(), "runs as a write at once: " + second);
            assertEquals(List.of(tool + "-1", tool + "-2"), platform.jdbi().withHandle(h -> h.createQuery(
                    "SELECT name FROM probe.items WHERE workspace_id = :ws AND name LIKE :tool || '-%' ORDER BY name")
                    .bind("ws", ws).bind("tool", tool).mapTo(String.class).list()));
        }
    }

    /** A plugin's own use of the JDBC connection runs as the tenant in its workspace too: the opening goes first. */
    @Test
    void theConnectionUsedDirectlyGetsTheOpeningFirst(TestPlatform platform) {
        UUID ws = platform.createWorkspace("opening raw");
        var raw = counted(() -> read(transactions(platform), ws, tx -> {
            try (Statement statement = tx.handle().getConnection().createStatement();
                    ResultSet row = statement.executeQuery(WHO)) {
                row.next();
                return row.getString(1);
            }
        }));
        assertEquals(ws + " lnp_tenant", raw.result());
        assertEquals(3, raw.roundTrips(), "the opening alone (a transaction now), the statement, the commit");
    }

    @Test
    void aBatchGetsTheOpeningFirst(TestPlatform platform) {
        UUID ws = platform.createWorkspace("opening batch");
        var transactions = transactions(platform);
        int[] inserted = read(transactions, ws, tx -> {
            var batch = tx.handle().prepareBatch("INSERT INTO probe.items (workspace_id, name) "
                    + "VALUES (current_setting('lnp.workspace_id')::uuid, :name)");
            batch.bind("name", "a").add();
            batch.bind("name", "b").add();
            return batch.execute();
        });
        assertEquals(2, inserted.length);
        long stored = read(transactions, ws,
                tx -> tx.handle().createQuery("SELECT count(*) FROM probe.items").mapTo(Long.class).one());
        assertEquals(2, stored);
    }

    /**
     * A connection whose statements are prepared from their first run with binary results (prepareThreshold -1,
     * here for the URL; a test or a plugin may set it on a pooled connection) gets the opening alone: pgjdbc
     * describes a multi-statement text's parts wrongly there, and the joined statement would break the connection.
     */
    @Test
    void aConnectionThatForcesBinaryResultsGetsTheOpeningAlone(TestPlatform platform) {
        UUID ws = platform.createWorkspace("opening binary");
        var properties = new java.util.Properties();
        properties.setProperty("user", "postgres");
        properties.setProperty("prepareThreshold", "-1");
        var binary = org.jdbi.v3.core.Jdbi.create(platform.databaseUrl(), properties);
        var transactions = new WorkspaceTransactions(binary, platform.platform().registry());
        for (int run = 0; run < 3; run++) {
            String read = read(transactions, ws, tx -> tx.handle()
                    .createQuery("SELECT now() AS at, :id::uuid AS id, " + WHO.substring("SELECT ".length()))
                    .bind("id", ws).map((rs, ctx) -> rs.getString(2) + " " + rs.getString(3)).one());
            assertEquals(ws + " " + ws + " lnp_tenant", read, "run " + run);
        }
    }

    @Test
    void aReadWithoutStatementsAndWithoutACheckSendsNothing(TestPlatform platform) {
        UUID ws = platform.createWorkspace("opening nothing");
        var nothing = counted(() -> read(transactions(platform), ws, tx -> "answered"));
        assertEquals("answered", nothing.result());
        assertEquals(0, nothing.roundTrips());
    }

    @Test
    void aFailingFirstStatementRollsBackAndLeavesThePoolClean(TestPlatform platform) throws Exception {
        UUID ws = platform.createWorkspace("opening failure");
        var transactions = transactions(platform);
        for (boolean read : new boolean[] {true, false}) {
            var failure = assertThrows(UnableToExecuteStatementException.class, () -> call(transactions, ws, read,
                    tx -> tx.handle().createQuery("SELECT 1 / (SELECT count(*) FROM probe.items)")
                            .mapTo(Integer.class).one()));
            assertEquals("22012", SqlStates.find(failure, state -> true), "read " + read);
        }
        for (int i = 0; i < 20; i++) {
            assertEquals(ws + " lnp_tenant", read(transactions, ws,
                    tx -> tx.handle().createQuery(WHO).mapTo(String.class).one()));
            assertEquals(" postgres true", platform.jdbi().withHandle(h -> h.createQuery(
                    "SELECT coalesce(current_setting('lnp.workspace_id', true), '') || ' ' || current_user")
                    .mapTo(String.class).one() + " " + h.getConnection().getAutoCommit()), "pooled connection " + i);
        }
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

    /**
     * A read's check comes with its first statement: a handler that hides that statement's failure still gets its
     * call admitted again, and the revoked key its 401, never the handler's answer.
     */
    @Test
    void aStaleAdmissionIsRefusedEvenWhenTheHandlerHidesItsStatementsFailure(TestPlatform platform) {
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

    /**
     * A cached read made stale by a change that leaves the key valid is refused at its first statement, admitted
     * again from the database and answered by the transaction run again.
     */
    @Test
    void aStaleButValidReadIsAnsweredByTheTransactionRunAgain(TestPlatform platform) {
        RateWindows.stayInOneMinute(10);
        UUID ws = platform.createWorkspace("opening stale read");
        var reader = platform.connections().create(new dev.lnp.core.auth.Connections.NewConnection(ws, "reader",
                List.of("probe.read"), null, null, null));
        var other = platform.connections().create(new dev.lnp.core.auth.Connections.NewConnection(ws, "other",
                List.of("probe.read"), null, null, null));
        for (int i = 0; i < 3; i++) {
            assertEquals(200, platform.get("/api/v1/probe/careless-count", reader.key()).status());
        }
        platform.jdbi().useHandle(h -> h.execute("UPDATE lnp_core.connections SET revoked_at = now() WHERE id = ?",
                other.connectionId()));
        long staleBefore = platform.admissions("cache_stale");
        TestResponse answer = platform.get("/api/v1/probe/careless-count", reader.key());
        assertEquals(200, answer.status(), answer.body());
        assertEquals(0, answer.data().path("count").asLong(), answer.body());
        assertEquals(1, platform.admissions("cache_stale") - staleBefore, "the cached admission was found stale");
    }
}
