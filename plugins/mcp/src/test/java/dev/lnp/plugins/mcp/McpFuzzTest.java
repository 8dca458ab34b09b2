package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.FuzzRecorder;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The MCP JSON-RPC endpoint under generated messages: every registered tool name plus broken
 * ones, arguments of any shape (NULs, {@code 1e400}, huge pages, wrong types), odd ids, batches, unknown methods.
 * No answer may be a 5xx or a JSON-RPC internal error (-32603), and the key may reach no log line. The build runs
 * the tries of junit-platform.properties; {@code -Djqwik.tries.default=100000} for a long run (docs/testing.md).
 */
class McpFuzzTest {

    private static TestPlatform platform;
    private static String key;
    private static List<String> tools;
    private static FuzzRecorder recorder;

    @BeforeContainer
    static void boot() {
        platform = TestPlatform.start("mcp-fuzz", List.of(McpFixtures.PLUGINS), null,
                Map.of("lnp.limits.mcp_per_minute", "100000000", "lnp.limits.crm_monthly_quota", "100000000"));
        key = platform.fullAccessKey(platform.createWorkspace("mcp-fuzz"));
        tools = platform.platform().registry().tools().stream().map(t -> t.descriptor().name()).toList();
        recorder = FuzzRecorder.start();
    }

    @AfterContainer
    static void stop() {
        recorder.close();
        System.out.println("mcp fuzz: " + recorder.summary() + " (messages)");
        recorder.assertNeverLogged(key, key.substring(4, 20));
        if (platform != null) {
            platform.close();
        }
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void noMessageMakesTheEndpointFail(@ForAll("bodies") String body) {
        TestResponse response = McpFixtures.post(platform, key, McpFixtures.LATEST, body);
        recorder.answered(response.status());
        assertTrue(response.status() < 500, body + " -> " + response);
        assertFalse(response.body().contains("-32603"), "an internal error for " + body + " -> " + response.body());
        assertFalse(response.body().contains(key), "the key in a response");
    }

    @Provide
    Arbitrary<String> bodies() {
        Arbitrary<String> one = message();
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, one),
                net.jqwik.api.Tuple.of(1, one.list().ofMinSize(0).ofMaxSize(4).map(l -> "[" + String.join(",", l) + "]")),
                net.jqwik.api.Tuple.of(1, Arbitraries.of("", "{", "null", "[]", "{\"jsonrpc\":\"2.0\"}{}", "\"x\"",
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"method\":\"x\"}")));
    }

    private Arbitrary<String> message() {
        Arbitrary<String> id = Arbitraries.of("1", "\"a\"", "null", "1.5", "{}", "[]", "-1", "9223372036854775808",
                "\"\\u0000\"");
        Arbitrary<String> method = Arbitraries.of("tools/call", "tools/call", "tools/call", "tools/list", "ping",
                "initialize", "resources/list", "notifications/initialized", "", "tools/call\\u0000");
        Arbitrary<String> name = Arbitraries.oneOf(Arbitraries.of(tools),
                Arbitraries.of("", "\\u0000", "crm_nope", "x".repeat(300)));
        Arbitrary<String> arguments = Arbitraries.oneOf(argumentObject(), Arbitraries.of("null", "[]", "\"s\"", "5"));
        Arbitrary<String> params = Combinators.combine(name, arguments)
                .as((n, a) -> "{\"name\":\"" + n + "\",\"arguments\":" + a + "}");
        Arbitrary<String> otherParams = Arbitraries.of("{}", "null", "[]", "{\"cursor\":\"zz\"}", "{\"cursor\":5}",
                "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"f\",\"version\":\"1\"}}");
        return Combinators.combine(id, method, Arbitraries.oneOf(params, otherParams))
                .as((i, m, p) -> "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"" + m + "\",\"params\":" + p + "}");
    }

    private Arbitrary<String> argumentObject() {
        Arbitrary<String> field = Arbitraries.of("id", "name", "email", "title", "status", "priority", "page", "limit",
                "project_id", "kind", "first_name", "notes", "value", "custom_fields", "labels", "due_at", "x");
        Arbitrary<String> value = Arbitraries.oneOf(Arbitraries.of(FuzzRecorder.HOSTILE_SCALARS),
                Arbitraries.of("\"a\"", "9223372036854775807", "2147483648", "1", "[]", "{}", "{\"a\":1e400}",
                        "\"someone@example.com\"", "\"" + "y".repeat(2000) + "\"", "[\"\\u0000\"]", "\"open\"",
                        "\"high\""));
        return Combinators.combine(field, value).as((f, v) -> "\"" + f + "\":" + v).list().ofMaxSize(5)
                .map(fields -> "{" + String.join(",", fields) + "}");
    }
}
