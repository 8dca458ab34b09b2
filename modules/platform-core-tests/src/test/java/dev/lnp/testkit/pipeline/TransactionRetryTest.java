package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A route's or tool call's transaction that PostgreSQL aborts for a deadlock (40P01) or a serialization failure (40001) runs again
 * (TransactionStep, up to three runs); one aborted every time answers 409 {@code concurrent_update}; nothing of an
 * aborted run stays. The probe's conflict route inserts an item named after the request and answers how many
 * times its handler ran.
 */
@PlatformTest(plugins = "probe")
class TransactionRetryTest {

    private static final String CONFLICTS = "/api/v1/probe/conflicts";

    @Test
    void twoRequestsThatDeadlockBothSucceedTheAbortedOneRunningAgain(TestPlatform platform) throws Exception {
        String key = platform.fullAccessKey(platform.createWorkspace("deadlock"));
        // Each takes its first advisory lock, waits until the other has taken its own, then asks for the other's:
        // a real deadlock, which PostgreSQL breaks by aborting one of the two transactions.
        var left = CompletableFuture.supplyAsync(() -> platform.post(CONFLICTS, key,
                "{\"name\":\"left\",\"lock_first\":71,\"lock_then\":72,\"pair\":\"p\"}"));
        var right = CompletableFuture.supplyAsync(() -> platform.post(CONFLICTS, key,
                "{\"name\":\"right\",\"lock_first\":72,\"lock_then\":71,\"pair\":\"p\"}"));
        TestResponse l = left.get(30, TimeUnit.SECONDS);
        TestResponse r = right.get(30, TimeUnit.SECONDS);

        assertEquals(201, l.status(), l.toString());
        assertEquals(201, r.status(), r.toString());
        List<Integer> runs = List.of(l.data().path("runs").asInt(), r.data().path("runs").asInt());
        assertTrue(runs.contains(1) && runs.contains(2), "one ran once, the one PostgreSQL aborted twice: " + runs);
        assertEquals(1, items(platform, "left"), "the aborted run's insert was rolled back");
        assertEquals(1, items(platform, "right"));
    }

    @ParameterizedTest(name = "{0}: aborted {1} times with {2}")
    @CsvSource({"deadlocked, 2, 40P01", "serialization, 1, 40001"})
    void anAbortedTransactionCommitsOnALaterRun(String name, int aborts, String sqlState, TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace(name));
        TestResponse response = platform.post(CONFLICTS, key,
                "{\"name\":\"" + name + "\",\"aborts\":" + aborts + ",\"sqlstate\":\"" + sqlState + "\"}");

        assertEquals(201, response.status(), response.toString());
        assertEquals(aborts + 1, response.data().path("runs").asInt());
        assertEquals(1, items(platform, name), "only the run that committed left its row");
    }

    @Test
    void aTransactionAbortedEveryTimeIs409AndSavesNothing(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("always"));
        TestResponse response = platform.post(CONFLICTS, key, "{\"name\":\"always\",\"aborts\":3}");

        assertEquals(409, response.status(), response.toString());
        assertEquals("concurrent_update", response.json().path("code").asText());
        assertTrue(response.header("Content-Type").orElse("").startsWith("application/problem+json"));
        assertTrue(response.json().path("detail").asText().contains("Nothing of it was saved"), response.body());
        assertEquals(0, items(platform, "always"), "no run committed");
        TestResponse next = platform.post(CONFLICTS, key, "{\"name\":\"always\"}");
        assertEquals(4, next.data().path("runs").asInt(), "three runs before the 409, none after it");
    }

    @Test
    void anIdempotentRequestRunAgainIsStoredOnceAndReplayed(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("idem"));
        Map<String, String> headers = Map.of("Idempotency-Key", "retry-1");
        String body = "{\"name\":\"idem\",\"aborts\":1}";
        TestResponse first = platform.send("POST", CONFLICTS, key, body, headers);
        TestResponse replay = platform.send("POST", CONFLICTS, key, body, headers);

        assertEquals(201, first.status(), first.toString());
        assertEquals(2, first.data().path("runs").asInt());
        assertEquals(201, replay.status(), replay.toString());
        assertEquals(first.body(), replay.body(), "the stored answer of the run that committed");
        assertEquals(1, items(platform, "idem"));
    }

    @Test
    void otherDatabaseErrorsAreNotRunAgain(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("other"));
        TestResponse response = platform.post(CONFLICTS, key,
                "{\"name\":\"unique\",\"aborts\":1,\"sqlstate\":\"23505\"}");

        assertEquals(500, response.status(), "an error the probe leaves unhandled: " + response);
        assertEquals(0, items(platform, "unique"));
        TestResponse next = platform.post(CONFLICTS, key, "{\"name\":\"unique\"}");
        assertEquals(2, next.data().path("runs").asInt(), "the failed request ran once");
    }

    @Test
    void aConflictSqlStateTheProbeDoesNotKnowIsRefused(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("bad"));
        TestResponse response = platform.post(CONFLICTS, key, "{\"name\":\"x\",\"sqlstate\":\"99999\"}");

        assertEquals(422, response.status(), response.toString());
        assertEquals("/sqlstate", response.json().path("errors").get(0).path("pointer").asText());
    }

    @Test
    void aToolCallAbortedOnceRunsAgainAndOneAbortedEveryTimeIs409(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("tool"));
        ToolResult result = platform.callTool(key, "probe_conflict", "{\"name\":\"tool-once\",\"aborts\":1}");

        assertEquals(2, Json.mapper().valueToTree(result.data()).path("runs").asInt(), "the tool's handler ran twice");
        assertEquals(1, items(platform, "tool-once"));

        ApiProblem problem = assertThrows(ApiProblem.class, () -> platform.callTool(key, "probe_conflict",
                "{\"name\":\"tool-always\",\"aborts\":3}"));
        assertEquals(409, problem.status());
        assertEquals("concurrent_update", problem.code());
        assertEquals(0, items(platform, "tool-always"), "no run of the tool committed");
    }

    private static long items(TestPlatform platform, String name) {
        return platform.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM probe.items WHERE name = :name")
                .bind("name", name).mapTo(Long.class).one());
    }
}
