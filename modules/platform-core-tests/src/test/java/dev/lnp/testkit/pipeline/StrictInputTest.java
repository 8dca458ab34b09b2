package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the pipeline refuses before any handler sees a body: NUL
 * characters, non-finite numbers, trailing documents, duplicate keys, other encodings than UTF-8, malformed JSON
 * media types; and how long a list of field errors may grow.
 */
@PlatformTest(plugins = "probe")
class StrictInputTest {

    private static final String ITEMS = "/api/v1/probe/items";

    private static String key(TestPlatform platform) {
        return platform.fullAccessKey(platform.createWorkspace("strict"));
    }

    private static int items(TestPlatform platform) {
        return platform.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM probe.items")
                .mapTo(Integer.class).one());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "NUL in a string field        | {\"name\":\"a\\u0000b\"}                 | /name        | no_nul",
            "NUL in a nested string       | {\"name\":\"a\",\"extra\":{\"k\":[\"\\u0000\"]}} | /extra/k/0 | no_nul",
            "NUL in a field name          | {\"name\":\"a\",\"extra\":{\"k\\u0000\":1}} | /extra     | no_nul",
            "Infinity in an enum field    | {\"name\":\"a\",\"kind\":1e400}          | /kind        | finite",
            "-Infinity in an integer      | {\"name\":\"a\",\"count\":-1e400}        | /count       | finite",
            "Infinity in a free object    | {\"name\":\"a\",\"extra\":{\"a\":1e400}} | /extra/a     | finite"})
    void nulAndNonFiniteNumbersAre422NamingTheField(String testCase, String body, String pointer, String rule,
            TestPlatform platform) {
        int before = items(platform);
        TestResponse response = platform.post(ITEMS, key(platform), body);
        assertEquals(422, response.status(), testCase + ": " + response);
        JsonNode error = response.json().path("errors").get(0);
        assertEquals(pointer, error.path("pointer").asText(), response.body());
        assertEquals(rule, error.path("rule").asText(), response.body());
        assertEquals(before, items(platform), "nothing was stored");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "a second document      | {\"name\":\"x1\"}{\"evil\":true}  | more than one JSON document",
            "a trailing value       | {\"name\":\"x1\"} 5                | more than one JSON document",
            "a duplicate key        | {\"name\":\"x1\",\"name\":\"x2\"}  | Duplicate field 'name'",
            "NaN                    | {\"name\":\"x1\",\"count\":NaN}    | NaN",
            "a trailing comma       | {\"name\":\"x1\",}                 | line 1"})
    void lenientJsonIs400WithoutLibraryNames(String testCase, String body, String detail, TestPlatform platform) {
        int before = items(platform);
        TestResponse response = platform.post(ITEMS, key(platform), body);
        assertEquals(400, response.status(), testCase + ": " + response);
        assertEquals("invalid_json", response.json().path("code").asText());
        String text = response.json().path("detail").asText();
        assertTrue(text.contains(detail), text);
        for (String leak : new String[] {"Feature", "jackson", "Jackson", "`", "com.fasterxml", "JsonNode"}) {
            assertFalse(response.body().contains(leak), leak + " in " + response.body());
        }
        assertEquals(before, items(platform), "nothing was stored");
    }

    @ParameterizedTest
    @ValueSource(strings = {"UTF-16BE", "UTF-16LE", "UTF-32BE"})
    void aBodyInAnotherEncodingThanUtf8Is400(String charset, TestPlatform platform) throws Exception {
        int before = items(platform);
        byte[] body = "{\"name\":\"wide\"}".getBytes(java.nio.charset.Charset.forName(charset));
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(platform.uri(ITEMS))
                .header("Authorization", "Bearer " + key(platform)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, response.statusCode(), response.body());
        assertTrue(response.body().contains("invalid_json"), response.body());
        assertEquals(before, items(platform));
    }

    @Test
    void invalidUtf8Is400(TestPlatform platform) throws Exception {
        byte[] body = "{\"name\":\"?\"}".getBytes(StandardCharsets.US_ASCII);
        body[9] = (byte) 0xC3; // a lead byte without its continuation
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(platform.uri(ITEMS))
                .header("Authorization", "Bearer " + key(platform)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, response.statusCode(), response.body());
        assertTrue(response.body().contains("UTF-8"), response.body());
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/jsonx", "application/json;;", "application/json; charset=latin1",
            "application/json-patch+json", "application/json;charset", "text/json", "application/ json"})
    void malformedOrOtherMediaTypesAre415(String contentType, TestPlatform platform) {
        TestResponse response = platform.send("POST", ITEMS, key(platform), "{\"name\":\"m\"}",
                Map.of("Content-Type", contentType));
        assertEquals(415, response.status(), contentType + ": " + response);
        assertEquals("unsupported_media_type", response.json().path("code").asText());
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/json", "Application/JSON", "application/json; charset=utf-8",
            "application/json;charset=\"UTF-8\"", "application/json ; charset=UTF-8"})
    void jsonMediaTypesAreAccepted(String contentType, TestPlatform platform) {
        TestResponse response = platform.send("POST", ITEMS, key(platform), "{\"name\":\"ok\"}",
                Map.of("Content-Type", contentType));
        assertEquals(201, response.status(), contentType + ": " + response);
    }

    /** Defect 6: 200,000 bad ids answered a 28.9 MB list of errors; the list is capped and says what it left out. */
    @Test
    void aLongListOfFieldErrorsIsCappedAndCountsWhatItLeftOut(TestPlatform platform) {
        StringBuilder body = new StringBuilder("{\"name\":\"a\",\"tags\":[");
        int bad = 5000;
        for (int i = 0; i < bad; i++) {
            body.append(i == 0 ? "" : ",").append('"').append(i).append('"');
        }
        body.append("]}");
        TestResponse response = platform.post(ITEMS, key(platform), body.toString());
        assertEquals(422, response.status());
        JsonNode problem = response.json();
        assertEquals(100, problem.path("errors").size(), "errors listed");
        assertEquals(bad + 1 - 100, problem.path("errors_omitted").asInt(), "errors left out (5000 formats, maxItems)");
        assertTrue(problem.path("detail").asText().contains(bad + 1 + " fields are invalid"),
                problem.path("detail").asText());
        assertTrue(response.body().length() < 20_000, "answer of " + response.body().length() + " characters");
    }

    @Test
    void aValidItemWithUnicodeStillPasses(TestPlatform platform) {
        TestResponse response = platform.post(ITEMS, key(platform),
                "{\"name\":\"Zoë \\u2603\",\"ref\":\"" + UUID.randomUUID() + "\",\"extra\":{\"n\":1e300}}");
        assertEquals(201, response.status(), response.body());
        assertEquals("Zoë ☃", response.data().path("name").asText());
    }
}
