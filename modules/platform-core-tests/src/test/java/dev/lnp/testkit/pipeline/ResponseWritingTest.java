package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Answers are written into pooled buffers and sent only once complete: every answer carries its
 * {@code Content-Length}, a failure while an answer is being written is a problem+json answer (never a 200 cut off
 * half way), and buffers going back to the pool never mix one answer's bytes into another's.
 */
@PlatformTest(plugins = "probe")
class ResponseWritingTest {

    @Test
    void answersOfEverySizeComeWholeWithTheirContentLength(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("response-sizes"));
        // 1 row fits the first write with the headers; 40 rows the pooled buffer; 700 rows (700 KB) outgrow it.
        for (int rows : new int[] {0, 1, 40, 700}) {
            TestResponse response = platform.get("/api/v1/probe/long?rows=" + rows, key);
            assertEquals(200, response.status(), response.body());
            assertWhole(response, rows);
        }
    }

    @Test
    void aFailureWhileTheAnswerIsWrittenIsAProblemNotAHalfWritten200(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("response-failure"));
        TestResponse response = platform.send("GET", "/api/v1/probe/long?rows=600&fail_at=450", key, null,
                Map.of("X-Request-Id", "half-written-0001"));
        assertEquals(500, response.status(), response.body());
        assertTrue(response.header("Content-Type").orElseThrow().startsWith("application/problem+json"));
        assertEquals("half-written-0001", response.json().path("request_id").asText());
        assertFalse(response.body().contains("xxxx"), "no row of the failed answer is sent: " + response.body());
        assertEquals(String.valueOf(response.body().getBytes(StandardCharsets.UTF_8).length),
                response.header("Content-Length").orElseThrow());
        // The connection and the pool are fine afterwards.
        assertWhole(platform.get("/api/v1/probe/long?rows=3", key), 3);
    }

    @Test
    void concurrentAnswersNeverShareABuffer(TestPlatform platform) throws Exception {
        String key = platform.fullAccessKey(platform.createWorkspace("response-pool"));
        try (var pool = Executors.newFixedThreadPool(8)) {
            List<Future<?>> answers = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                int rows = 1 + (i * 37) % 90;
                boolean fail = i % 5 == 0;
                answers.add(pool.submit(() -> {
                    if (fail) {
                        assertEquals(500, platform.get("/api/v1/probe/long?rows=" + rows + "&fail_at=" + rows / 2,
                                key).status());
                    } else {
                        assertWhole(platform.get("/api/v1/probe/long?rows=" + rows, key), rows);
                    }
                    return null;
                }));
            }
            for (Future<?> answer : answers) {
                answer.get();
            }
        }
    }

    private static void assertWhole(TestResponse response, int rows) {
        assertEquals(200, response.status(), response.body());
        assertEquals(String.valueOf(response.body().getBytes(StandardCharsets.UTF_8).length),
                response.header("Content-Length").orElseThrow(), "Content-Length of " + rows + " rows");
        assertTrue(response.header("Transfer-Encoding").isEmpty());
        JsonNode data = response.data();
        assertEquals(rows, data.size());
        for (int i = 0; i < rows; i++) {
            assertEquals(i + "x".repeat(1000), data.get(i).asText(), "row " + i);
        }
    }
}
