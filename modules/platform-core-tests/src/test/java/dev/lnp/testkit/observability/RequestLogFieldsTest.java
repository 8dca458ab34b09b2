package dev.lnp.testkit.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.logging.JsonLogFormatter;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** JSON log lines written while a request is served carry request_id, workspace_id and route as fields. */
@PlatformTest(plugins = "probe")
class RequestLogFieldsTest {

    @Test
    void aLineLoggedWhileServingNamesTheRequestTheWorkspaceAndTheRoute(TestPlatform platform) {
        UUID ws = platform.createWorkspace("log-fields");
        String key = platform.fullAccessKey(ws);
        JsonLogFormatter formatter = new JsonLogFormatter();
        List<String> lines = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(formatter.format(record)); // formatted on the logging thread, as the console handler does
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger routes = Logger.getLogger("dev.lnp.core.http.RouteHandler");
        routes.addHandler(capture);
        try {
            assertEquals(500, platform.send("GET", "/api/v1/probe/boom", key, null, Map.of("X-Request-Id", "log-fields-1")).status());
        } finally {
            routes.removeHandler(capture);
        }
        JsonNode line = lines.stream().map(Json::parse).filter(l -> l.path("level").asText().equals("SEVERE"))
                .findFirst().orElseThrow(() -> new AssertionError("no error logged: " + lines));
        assertEquals("log-fields-1", line.path("request_id").asText());
        assertEquals(ws.toString(), line.path("workspace_id").asText());
        assertEquals("GET /api/v1/probe/boom", line.path("route").asText());

        // Outside a request (here, the test's own thread) there are no such fields.
        JsonNode outside = Json.parse(formatter.format(new LogRecord(java.util.logging.Level.INFO, "idle")));
        assertFalse(outside.has("request_id") || outside.has("route") || outside.has("workspace_id"), outside.toString());
        assertTrue(outside.has("message"));
    }
}
