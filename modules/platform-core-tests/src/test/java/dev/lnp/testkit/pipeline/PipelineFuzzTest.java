package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.FuzzRecorder;
import dev.lnp.testkit.TestPlatform;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * A property-based fuzz of the request pipeline with jqwik: generated JSON bodies (valid,
 * broken, NULs, huge and non-finite numbers, deep nesting, duplicate keys, trailing data), query strings, content
 * types and Authorization headers, sent over real HTTP to the probe plugin's routes and the MCP-shaped JSON-RPC
 * probe. Every answer must be below 500, arrive within 10 s, be problem+json when it is an error, and no log line
 * may carry the key.
 *
 * <p>The normal build runs a few hundred inputs ({@code jqwik.tries.default} in junit-platform.properties); the long
 * run is {@code -Djqwik.tries.default=100000} (docs/testing.md).
 */
class PipelineFuzzTest {

    private static TestPlatform platform;
    private static String key;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static FuzzRecorder recorder;

    @BeforeContainer
    static void boot() {
        platform = TestPlatform.start("fuzz", List.of("probe"), null, Map.of("lnp.http.max_body_bytes", "16384",
                "lnp.limits.rest_per_minute", "100000000"));
        key = platform.fullAccessKey(platform.createWorkspace("fuzz"));
        recorder = FuzzRecorder.start();
    }

    @AfterContainer
    static void stop() {
        recorder.close();
        System.out.println("pipeline fuzz: " + recorder.summary() + " (requests)");
        recorder.assertNeverLogged(key, key.substring(4, 20));
        if (platform != null) {
            platform.close();
        }
    }

    record Request(String method, String path, String contentType, String authorization, String body) {
    }

    @Property(shrinking = net.jqwik.api.ShrinkingMode.OFF)
    void noInputMakesThePipelineFail(@ForAll("requests") Request request) throws Exception {
        HttpRequest.Builder http = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + platform.port()
                        + request.path())).timeout(Duration.ofSeconds(10));
        if (request.contentType() != null) {
            http.header("Content-Type", request.contentType());
        }
        http.header("Authorization", request.authorization().replace("KEY", key));
        http.method(request.method(), request.body() == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(request.body().getBytes(StandardCharsets.UTF_8)));
        HttpResponse<String> response = HTTP.send(http.build(), HttpResponse.BodyHandlers.ofString());
        recorder.answered(response.statusCode());
        assertTrue(response.statusCode() < 500, request + " -> " + response.statusCode() + " " + response.body());
        if (response.statusCode() >= 400) {
            assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
                    request + " -> " + response.headers().map() + " " + response.body());
        }
        assertFalse(response.body().contains(key), "the key in a response");
    }

    @Provide
    Arbitrary<Request> requests() {
        Arbitrary<String> method = Arbitraries.of("POST", "PATCH", "GET", "DELETE");
        Arbitrary<String> path = Arbitraries.oneOf(
                Arbitraries.just("/api/v1/probe/items"),
                Arbitraries.just("/api/v1/probe/items/" + java.util.UUID.randomUUID()),
                Arbitraries.just("/api/v1/probe/events"),
                query().map(q -> "/api/v1/probe/items?" + q),
                Arbitraries.strings().ofMaxLength(12).alpha().numeric().map(s -> "/api/v1/probe/items/" + s));
        Arbitrary<String> contentType = Arbitraries.oneOf(Arbitraries.just("application/json"),
                Arbitraries.of("application/json; charset=utf-8", "application/jsonx", "application/json;;",
                        "text/plain", "application/json; charset=latin1"),
                Arbitraries.just((String) null));
        Arbitrary<String> authorization = Arbitraries.oneOf(Arbitraries.just("Bearer KEY").list().ofSize(1)
                        .map(l -> l.get(0)),
                Arbitraries.of("Bearer KEY", "Bearer KEY", "Bearer KEY", "bearer KEY", "Bearer  KEY ",
                        "Basic KEY", "Bearer \"KEY\"", "Bearer lnp_x", "Bearer KEYx"));
        return Combinators.combine(method, path, contentType, authorization, body())
                .as(Request::new);
    }

    private Arbitrary<String> query() {
        Arbitrary<String> name = Arbitraries.of("page", "limit", "kind", "q", "per_page", "sort", "", "page%5B%5D");
        Arbitrary<String> value = Arbitraries.oneOf(Arbitraries.integers().map(String::valueOf),
                Arbitraries.of("a", "b", "A", "-1", "0", "101", "9223372036854775808", "1e400", "%00", "%25ZZ", "%25",
                        "x".repeat(600), "NaN", ""),
                Arbitraries.strings().ofMaxLength(20).withCharRange('!', '~')
                        .map(s -> java.net.URLEncoder.encode(s, StandardCharsets.UTF_8)));
        return Combinators.combine(name, value).as((n, v) -> n + "=" + v).list().ofMaxSize(4)
                .map(parts -> String.join("&", parts));
    }

    private Arbitrary<String> body() {
        return Arbitraries.oneOf(
                json(3),
                json(3).map(j -> j + j),
                json(2).map(j -> j.length() > 2 ? j.substring(0, j.length() / 2) : j),
                Arbitraries.strings().ofMaxLength(40),
                Arbitraries.of("{\"name\":\"a\",\"name\":\"b\"}", "{\"name\":NaN}", "{\"name\":\"x\",}", "[]", "null",
                        "{\"count\":1e400}", "{\"count\":-0}", "\uFEFF{\"name\":\"bom\"}", "{\"name\":\"\\ud800\"}",
                        "[".repeat(2000) + "]".repeat(2000), "{\"a\":" .repeat(500) + "1" + "}".repeat(500)),
                Arbitraries.just((String) null));
    }

    private Arbitrary<String> json(int depth) {
        Arbitrary<String> scalar = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(25).map(PipelineFuzzTest::quote),
                Arbitraries.of(FuzzRecorder.HOSTILE_SCALARS),
                Arbitraries.of("3.5", "\"a\"", "\"b\"", "\"probe.burst\""),
                Arbitraries.integers().map(String::valueOf),
                Arbitraries.doubles().map(String::valueOf).filter(s -> !s.contains("Infinity") && !s.contains("NaN")));
        if (depth == 0) {
            return scalar;
        }
        Arbitrary<String> field = Arbitraries.oneOf(
                Arbitraries.of("name", "kind", "ref", "due", "at", "count", "email", "tags", "extra", "event", "pad",
                        "fail", "colour", "label", "name\\u0000", ""),
                Arbitraries.strings().ofMaxLength(10).alpha());
        Arbitrary<String> member = Combinators.combine(field, Arbitraries.lazy(() -> json(depth - 1)))
                .as((f, v) -> quote(f).replace("\\\\u0000", "\\u0000") + ":" + v);
        Arbitrary<String> object = member.list().ofMaxSize(5).map(m -> "{" + String.join(",", m) + "}");
        Arbitrary<String> array = Arbitraries.lazy(() -> json(depth - 1)).list().ofMaxSize(5)
                .map(items -> "[" + String.join(",", items) + "]");
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(2, scalar), net.jqwik.api.Tuple.of(5, object),
                net.jqwik.api.Tuple.of(1, array));
    }

    private static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
