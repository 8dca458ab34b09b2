package dev.lnp.testkit.console;

import static dev.lnp.testkit.observability.MetricsTest.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The console's requests in {@code http_server_requests_seconds} on the management listener, like the API's: by
 * route template (no id in any label), with their status, a failing page's 500 included.
 */
@PlatformTest(plugins = "probe")
class ConsoleMetricsTest {

    private static final String COUNT = "http_server_requests_seconds_count";

    @Test
    void consolePagesAreCountedByRouteTemplateWithTheirStatusAndFailures(TestPlatform platform) {
        UUID ws = platform.createWorkspace("console-metrics");
        var owner = ConsoleWebhooksTest.signIn(platform, ws, "owner");
        String connection = UUID.randomUUID().toString();

        assertEquals(200, new ConsoleClient(platform.port()).get("/console/sign-in").status(), "signed out");
        assertEquals(404, owner.client().get("/console/connections/" + connection).status());
        assertEquals(404, owner.client().get("/console/no-such-page").status());
        assertEquals(303, owner.client().get("/console").status(), "the home page sends on to the first page");
        var broken = owner.client().get("/console/probe/failing/broken");
        assertEquals(500, broken.status(), broken.body());

        String text = platform.metrics();
        assertTrue(value(text, COUNT, "method=\"GET\"", "uri=\"/console/sign-in\"", "status=\"200\"",
                "outcome=\"SUCCESS\"") >= 1, text);
        assertTrue(value(text, COUNT, "uri=\"/console/connections/{id}\"", "status=\"404\"") >= 1, text);
        assertTrue(value(text, COUNT, "uri=\"/console/**\"", "status=\"404\"") >= 1, text);
        assertEquals(1.0, value(text, COUNT, "uri=\"/console/probe/failing/{how}\"", "status=\"500\"",
                "outcome=\"SERVER_ERROR\""), text);
        assertEquals(1.0, value(text, COUNT, "uri=\"/console/\"", "status=\"303\""), "the home page: " + text);
        assertFalse(text.contains("uri=\"/console\""), "the catch-all is /console/**: " + text);
        assertFalse(text.contains(connection), "no raw path or id in any label");
        assertFalse(text.contains("no-such-page"), "no raw path in any label");
        assertTrue(text.contains("http_server_requests_seconds_bucket{") && text.contains("uri=\"/console/sign-in\""),
                "with the latency histogram");
    }
}
