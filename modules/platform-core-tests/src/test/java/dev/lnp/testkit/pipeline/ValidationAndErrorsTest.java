package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@PlatformTest(plugins = "probe", config = "lnp.http.max_body_bytes=2048")
class ValidationAndErrorsTest {

    private static String key(TestPlatform platform) {
        return platform.fullAccessKey(platform.createWorkspace("v"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "unknown field            | {\"name\":\"a\",\"colour\":\"red\"}   | /colour | unknown",
            "wrong type               | {\"name\":5}                          | /name   | type",
            "too long                 | {\"name\":\"aaaaaaaaaaaaaaaaaaaaa\"}  | /name   | maxLength",
            "enum with wrong casing   | {\"name\":\"a\",\"kind\":\"A\"}       | /kind   | enum",
            "bad uuid                 | {\"name\":\"a\",\"ref\":\"123\"}      | /ref    | format",
            "bad date                 | {\"name\":\"a\",\"due\":\"2026-02-30\"} | /due  | format",
            "bad timestamp            | {\"name\":\"a\",\"at\":\"yesterday\"} | /at     | format",
            "missing required field   | {\"kind\":\"a\"}                      | /name   | required",
            "negative where minimum 0 | {\"name\":\"a\",\"count\":-1}         | /count  | minimum",
            "bad email                | {\"name\":\"a\",\"email\":\"nope\"}   | /email  | format"})
    void invalidBodiesAre422NamingTheField(String rule, String body, String pointer, String keyword,
            TestPlatform platform) {
        TestResponse response = platform.post("/api/v1/probe/items", key(platform), body);
        assertEquals(422, response.status(), rule + ": " + response);
        var error = response.json().path("errors").get(0);
        assertEquals(pointer, error.path("pointer").asText(), response.body());
        assertEquals(keyword, error.path("rule").asText(), response.body());
        assertEquals("validation_failed", response.json().path("code").asText());
    }

    @Test
    void aSchemaHintExplainsAnUnknownField(TestPlatform platform) {
        var response = platform.post("/api/v1/probe/items", key(platform), "{\"name\":\"a\",\"label\":\"x\"}");
        assertEquals(422, response.status());
        assertTrue(response.json().path("errors").get(0).path("message").asText().contains("use name instead"));
    }

    @Test
    void invalidJsonIs400(TestPlatform platform) {
        var response = platform.post("/api/v1/probe/items", key(platform), "{\"name\":");
        assertEquals(400, response.status());
        assertEquals("invalid_json", response.json().path("code").asText());
    }

    @Test
    void anEmptyPatchIsInvalid(TestPlatform platform) {
        String key = key(platform);
        String id = platform.post("/api/v1/probe/items", key, "{\"name\":\"a\"}").data().path("id").asText();
        var response = platform.patch("/api/v1/probe/items/" + id, key, "{}");
        assertEquals(422, response.status(), response.body());
        assertEquals("minProperties", response.json().path("errors").get(0).path("rule").asText());
        assertEquals("the body must set at least one field",
                response.json().path("errors").get(0).path("message").asText(), response.body());
    }

    @Test
    void anArrayElementIsNamedByItsArrayAndIndex(TestPlatform platform) {
        var response = platform.post("/api/v1/probe/items", key(platform),
                "{\"name\":\"a\",\"tags\":[\"" + java.util.UUID.randomUUID() + "\",\"nope\"]}");
        assertEquals(422, response.status(), response.body());
        var error = response.json().path("errors").get(0);
        assertEquals("/tags/1", error.path("pointer").asText());
        assertEquals("tags[1] must be a valid RFC 4122 UUID", error.path("message").asText(), response.body());
    }

    @Test
    void aBodyOverTheLimitIs413(TestPlatform platform) {
        var response = platform.post("/api/v1/probe/items", key(platform), "{\"name\":\"" + "x".repeat(4000) + "\"}");
        assertEquals(413, response.status());
        assertEquals("payload_too_large", response.json().path("code").asText());
    }

    @Test
    void aBodyThatIsNotJsonIs415(TestPlatform platform) {
        var response = platform.send("POST", "/api/v1/probe/items", key(platform), "name=a",
                Map.of("Content-Type", "application/x-www-form-urlencoded"));
        assertEquals(415, response.status());
    }

    @ParameterizedTest
    @CsvSource({"page=0,?page", "limit=0,?limit", "limit=101,?limit", "limit=abc,?limit", "page=-1,?page",
            "per_page=10,?per_page", "sort=name,?sort", "kind=A,?kind", "page=1&page=2,?page"})
    void invalidQueryParametersAre400NamingThem(String query, String pointer, TestPlatform platform) {
        var response = platform.get("/api/v1/probe/items?" + query, key(platform));
        assertEquals(400, response.status(), response.body());
        assertEquals(pointer, response.json().path("errors").get(0).path("pointer").asText());
        assertTrue(response.json().path("detail").asText().contains(pointer.substring(1)));
    }

    @Test
    void theEnvelopeCarriesPaginationAndTheVersionHeader(TestPlatform platform) {
        String key = key(platform);
        for (int i = 0; i < 3; i++) {
            platform.post("/api/v1/probe/items", key, "{\"name\":\"n" + i + "\"}");
        }
        var page = platform.get("/api/v1/probe/items?limit=2&kind=a&kind=b", key);
        assertEquals(200, page.status(), page.body());
        assertEquals("v1", page.header("X-API-Version").orElseThrow());
        assertEquals(2, page.data().size());
        var pagination = page.json().path("pagination");
        assertEquals(1, pagination.path("page").asInt());
        assertEquals(2, pagination.path("limit").asInt());
        assertEquals(3, pagination.path("total").asInt());
        assertTrue(pagination.path("hasMore").asBoolean());
        var last = platform.get("/api/v1/probe/items?limit=2&page=2", key).json().path("pagination");
        assertFalse(last.path("hasMore").asBoolean());
    }

    @Test
    void problemsFollowRfc9457AndLeakNothingInternal(TestPlatform platform) {
        var response = platform.send("GET", "/api/v1/probe/boom", key(platform), null,
                Map.of("X-Request-Id", "test-request-0001"));
        assertEquals(500, response.status());
        assertTrue(response.header("Content-Type").orElseThrow().startsWith("application/problem+json"));
        var problem = response.json();
        for (String field : new String[] {"type", "title", "status", "detail", "code", "request_id"}) {
            assertTrue(problem.has(field), field + " in " + problem);
        }
        assertEquals("test-request-0001", problem.path("request_id").asText());
        assertEquals("test-request-0001", response.header("X-Request-Id").orElseThrow());
        assertFalse(response.body().contains("SELECT"), response.body());
        assertFalse(response.body().contains("IllegalStateException"), response.body());
        assertFalse(response.body().contains("dev.lnp"), response.body());
    }

    @ParameterizedTest
    // /favicon.ico is served (204, FaviconTest), so browsers do not fill the log with 404s.
    @CsvSource({"/observe/metrics", "/nothing/here", "/favicon.png", "/"})
    void pathsOutsideTheApiThatNothingServesAre404ProblemsSayingSo(String path, TestPlatform platform) {
        var response = platform.get(path, null);
        assertEquals(404, response.status(), response.body());
        assertEquals("application/problem+json", response.header("Content-Type").orElseThrow());
        assertEquals("not_found", response.json().path("code").asText());
        assertEquals("https://lnp.dev/problems/not-found", response.json().path("type").asText());
        assertEquals("Nothing is served at " + path + ".", response.json().path("detail").asText());
        assertEquals(response.header("X-Request-Id").orElseThrow(), response.json().path("request_id").asText());
        assertEquals(200, platform.get("/observe/health", null).status(), "health is still served");
    }

    @Test
    void unknownRoutesAre404Problems(TestPlatform platform) {
        var response = platform.get("/api/v1/nothing/here", key(platform));
        assertEquals(404, response.status());
        assertEquals("route_not_found", response.json().path("code").asText());
        assertTrue(response.header("X-Request-Id").isPresent());
    }
}
