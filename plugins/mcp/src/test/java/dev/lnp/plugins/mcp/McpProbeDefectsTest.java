package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Malformed input that once reached the MCP surface: each case is answered with a JSON-RPC error, never a 500. */
@PlatformTest(plugins = {"mcp", "crm", "projects", "issues"})
class McpProbeDefectsTest {

    private static final String NUL_NAME = "{\"name\":\"\\u0000\",\"arguments\":{}}";

    /**
     * Defect 1: a NUL in a tool name reached the batched audit insert, PostgreSQL refused the whole batch and the
     * writer dropped it, other workspaces' records included. Calls from two workspaces interleave so that the bad
     * record shares batches with good ones.
     */
    @Test
    void aNulInAToolNameDropsNoAuditRecordOfItsOwnOrOfAnotherWorkspace(TestPlatform platform) throws Exception {
        UUID attackerWs = platform.createWorkspace("nul-attacker");
        String attacker = platform.fullAccessKey(attackerWs);
        UUID victimWs = platform.createWorkspace("nul-victim");
        String victim = platform.fullAccessKey(victimWs);
        int rounds = 40;
        try (ExecutorService pool = Executors.newFixedThreadPool(6)) {
            List<Future<TestResponse>> calls = new ArrayList<>();
            for (int i = 0; i < rounds; i++) {
                calls.add(pool.submit(() -> McpFixtures.rpc(platform, attacker, McpFixtures.LATEST, "tools/call",
                        NUL_NAME)));
                calls.add(pool.submit(() -> McpFixtures.rpc(platform, victim, McpFixtures.LATEST, "tools/call",
                        "{\"name\":\"crm_list_contacts\",\"arguments\":{}}")));
            }
            for (Future<TestResponse> call : calls) {
                assertEquals(200, call.get().status(), call.get().body());
            }
        }
        assertEquals(rounds, auditTotal(platform, victimWs, rounds), "the other workspace's audit records");
        assertEquals(rounds, auditTotal(platform, attackerWs, rounds), "the calls with a NUL in the name");
        String stored = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT min(tool) FROM lnp_core.tool_calls WHERE workspace_id = :ws").bind("ws", attackerWs)
                .mapTo(String.class).one());
        assertEquals("\uFFFD", stored, "the NUL is stored as the replacement character");
    }

    private static int auditTotal(TestPlatform platform, UUID ws, int expected) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        int total;
        do {
            total = platform.jdbi().withHandle(h -> h.createQuery(
                    "SELECT count(*) FROM lnp_core.tool_calls WHERE workspace_id = :ws").bind("ws", ws)
                    .mapTo(Integer.class).one());
            if (total >= expected) {
                return total;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } while (System.nanoTime() < deadline);
        return total;
    }

    /** Defect 3 on the REST tool route: refused as 422 naming the field, before any tool or audit sees it. */
    @Test
    void aNulInTheToolCallBodyIs422NamingTheField(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("nul-rest"));
        TestResponse response = platform.post("/api/mcp/tools/call", key, NUL_NAME);
        assertEquals(422, response.status(), response.body());
        assertEquals("/name", response.json().path("errors").get(0).path("pointer").asText(), response.body());
        assertEquals("no_nul", response.json().path("errors").get(0).path("rule").asText(), response.body());
    }

    /** Defects 3 and 4 in tool arguments over JSON-RPC: a tool execution error naming the argument, not a 500. */
    @ParameterizedTest
    @ValueSource(strings = {"{\"name\":\"a\\u0000b\"}|/name|no_nul", "{\"name\":\"p\",\"status\":1e400}|/status|finite"})
    void aNulOrANonFiniteNumberInToolArgumentsIsAnArgumentError(String testCase, TestPlatform platform) {
        String[] parts = testCase.split("\\|");
        UUID ws = platform.createWorkspace("nul-rpc");
        String key = platform.fullAccessKey(ws);
        // Sent as written: building it with the test's own JSON mapper would turn 1e400 into the string "Infinity".
        TestResponse response = McpFixtures.post(platform, key, McpFixtures.LATEST, "{\"jsonrpc\":\"2.0\",\"id\":1,"
                + "\"method\":\"tools/call\",\"params\":{\"name\":\"projects_create\",\"arguments\":" + parts[0] + "}}");
        JsonNode result = McpFixtures.result(response);
        assertTrue(result.path("isError").asBoolean(), response.body());
        String text = result.path("content").get(0).path("text").asText();
        assertTrue(text.contains(parts[1] + " [" + parts[2] + "]"), text);
        int created = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM projects.projects WHERE workspace_id = :ws").bind("ws", ws)
                .mapTo(Integer.class).one());
        assertEquals(0, created, "nothing was created");
    }

    /** Defect 5: a page near 2^63 overflowed to a negative OFFSET (500); it is bounded as on REST. */
    @ParameterizedTest
    @ValueSource(strings = {"9223372036854775807", "4611686018427387904", "2147483648"})
    void aHugePageInAListToolIsAnArgumentError(String page, TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("page"));
        TestResponse response = platform.post("/api/mcp/tools/call", key,
                "{\"name\":\"projects_list\",\"arguments\":{\"page\":" + page + "}}");
        assertEquals(422, response.status(), response.body());
        assertTrue(response.json().path("errors").get(0).path("pointer").asText().endsWith("/page"),
                response.body());
        TestResponse rpc = McpFixtures.rpc(platform, key, McpFixtures.LATEST, "tools/call",
                "{\"name\":\"projects_list\",\"arguments\":{\"page\":" + page + "}}");
        assertTrue(McpFixtures.result(rpc).path("isError").asBoolean(), rpc.body());
        assertFalse(rpc.body().contains("Internal"), rpc.body());
        TestResponse last = platform.post("/api/mcp/tools/call", key,
                "{\"name\":\"projects_list\",\"arguments\":{\"page\":2147483647}}");
        assertEquals(200, last.status(), last.body());
    }
}
