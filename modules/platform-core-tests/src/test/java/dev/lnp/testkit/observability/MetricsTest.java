package dev.lnp.testkit.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.Json;
import dev.lnp.core.limits.ToolCallLog;
import dev.lnp.core.metrics.PlatformMetrics;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import dev.lnp.testkit.WebhookReceiver;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Prometheus metrics on the management listener, in Micrometer's conventional names, and the platform's own:
 * requests by route template, the pool, the JVM and process, limit refusals, webhook deliveries, plugin and
 * version info. The public port does not serve them.
 */
@PlatformTest(plugins = "probe", config = {
        "lnp.limits.rest_per_minute=8",
        "lnp.webhooks.allowed_networks=127.0.0.0/8",
        "lnp.webhooks.poll_interval_ms=200"})
public class MetricsTest {

    @Test
    void metricsAreOnTheManagementListenerOnlyInPrometheusTextFormat(TestPlatform platform) throws Exception {
        assertNotEquals(platform.port(), platform.platform().managementPort());
        HttpResponse<String> metrics = platform.http().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + platform.platform().managementPort() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, metrics.statusCode());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", metrics.headers().firstValue("Content-Type").orElse(""));
        assertEquals(404, platform.get("/metrics", null).status(), "not on the public port");
        assertEquals(404, platform.get("/observe/metrics", null).status(), "not on the public port");
    }

    @Test
    void requestsPoolJvmProcessAndVersionAreMeasured(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("metrics-requests"));
        assertEquals(200, platform.get("/api/v1/probe/items?limit=5", key).status());
        String id = UUID.randomUUID().toString();
        assertEquals(404, platform.get("/api/v1/probe/items/" + id, key).status());

        String text = platform.metrics();
        assertTrue(value(text, "http_server_requests_seconds_count", "method=\"GET\"", "outcome=\"SUCCESS\"",
                "status=\"200\"", "uri=\"/api/v1/probe/items\"") >= 1, text);
        assertTrue(value(text, "http_server_requests_seconds_count", "status=\"404\"",
                "uri=\"/api/v1/probe/items/{id}\"") >= 1, "by route template, never the raw path");
        assertTrue(!text.contains(id), "no raw path or id in any label");
        assertTrue(text.contains("http_server_requests_seconds_bucket{"), "a latency histogram");
        assertTrue(value(text, "hikaricp_connections_max", "pool=\"lnp\"") >= 1, text);
        assertTrue(text.contains("hikaricp_connections_active{"), text);
        assertTrue(text.contains("jvm_memory_used_bytes{"), text);
        assertTrue(text.contains("jvm_threads_live_threads "), text);
        assertTrue(text.contains("process_cpu_usage "), text);
        assertTrue(text.contains("process_uptime_seconds "), text);
        assertEquals(1.0, value(text, "lnp_plugin_info", "plugin=\"probe\""), text);
        assertEquals(1.0, value(text, "lnp_build_info", "version=\""), text);
        assertTrue(!text.contains("version=\"unknown\"") && !text.contains("${project.version}"), "the build's version");
    }

    @Test
    void aRequestSeriesHasTheChosenLatencyBucketsOnly(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("metrics-buckets"));
        assertEquals(200, platform.get("/api/v1/probe/items?limit=1", key).status());
        String text = platform.metrics();
        List<String> bounds = text.lines()
                .filter(l -> l.startsWith("http_server_requests_seconds_bucket{") && l.contains("status=\"200\"")
                        && l.contains("uri=\"/api/v1/probe/items\"") && l.contains("method=\"GET\""))
                .map(l -> l.replaceAll(".*le=\"([^\"]+)\".*", "$1"))
                .toList();
        assertEquals(List.of("0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1.0", "2.5", "5.0", "10.0",
                "+Inf"), bounds, "the SLO buckets from 5 ms to 10 s, and +Inf");
        assertEquals(PlatformMetrics.REQUEST_BUCKETS.size() + 1, bounds.size());
        assertTrue(value(text, "http_server_requests_seconds_bucket", "uri=\"/api/v1/probe/items\"",
                "status=\"200\"", "le=\"+Inf\"") >= 1, text);
    }

    @Test
    void rateLimitAndQuotaRefusalsAreCounted(TestPlatform platform) {
        UUID ws = platform.createWorkspace("metrics-limits");
        String key = platform.fullAccessKey(ws);
        double before = value(platform.metrics(), "lnp_limit_refusals_total", "kind=\"rate_limit\"", "limit=\"rest\"");
        int refused = 0;
        for (int i = 0; i < 10; i++) {
            refused += platform.get("/api/v1/probe/items", key).status() == 429 ? 1 : 0;
        }
        assertTrue(refused >= 2, "8 per minute: " + refused + " refused");
        assertEquals(before + refused,
                value(platform.metrics(), "lnp_limit_refusals_total", "kind=\"rate_limit\"", "limit=\"rest\""));

        UUID other = platform.createWorkspace("metrics-quota");
        platform.setQuota(other, "probe_writes", 0);
        TestResponse overQuota = platform.post("/api/v1/probe/items", platform.fullAccessKey(other), "{\"name\":\"q\"}");
        assertEquals(429, overQuota.status(), overQuota.body());
        assertEquals(1.0, value(platform.metrics(), "lnp_limit_refusals_total", "kind=\"quota\"", "limit=\"probe_writes\""));
    }

    @Test
    void webhookAttemptsDeliveriesLagAndQueueDepthAreMeasured(TestPlatform platform) throws Exception {
        String key = platform.fullAccessKey(platform.createWorkspace("metrics-webhooks"));
        try (var receiver = new WebhookReceiver()) {
            String body = Json.object().put("url", receiver.url("/hook"))
                    .set("events", Json.mapper().valueToTree(List.of("probe.burst"))).toString();
            assertEquals(201, platform.post("/api/v1/webhooks/subscriptions", key, body).status());
            assertEquals(201, platform.post("/api/v1/probe/events", key, "{\"count\": 3}").status());
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (value(platform.metrics(), "lnp_webhook_deliveries_total", "outcome=\"delivered\"") < 3
                    && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            String text = platform.metrics();
            assertEquals(3.0, value(text, "lnp_webhook_deliveries_total", "outcome=\"delivered\""), text);
            assertEquals(3.0, value(text, "lnp_webhook_attempts_total", "outcome=\"delivered\""), text);
            assertEquals(3.0, value(text, "lnp_webhook_delivery_lag_seconds_count"), text);
            assertEquals(0.0, value(text, "lnp_webhook_queue_depth"), text);
        }
    }

    @Test
    void theAuditWritersBacklogAndLossesAreMeasured(TestPlatform platform) throws Exception {
        String key = platform.fullAccessKey(platform.createWorkspace("metrics-audit"));
        assertEquals(200, platform.get("/api/v1/probe/items?limit=5", key).status());
        String text = platform.metrics();
        for (String table : List.of("audit_log", "tool_calls")) {
            assertTrue(text.contains("lnp_audit_queue_records{table=\"" + table + "\"}"), text);
            assertTrue(text.contains("lnp_audit_dropped_records_total{table=\"" + table + "\"}"), text);
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (value(platform.metrics(), "lnp_audit_queue_records", "table=\"audit_log\"") > 0
                && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(0.0, value(platform.metrics(), "lnp_audit_queue_records", "table=\"audit_log\""),
                "the request's audit row is written, not left queued");
        // Written on the writers' own connections: a batch never takes one a request could have had.
        String drained = platform.metrics();
        assertEquals(2.0, value(drained, "hikaricp_connections_max", "pool=\"lnp-writers\""), drained);
        assertTrue(value(drained, "hikaricp_connections_acquire_seconds_count", "pool=\"lnp-writers\"") >= 1, drained);

        // A record the database refuses (an outcome its CHECK does not allow) is counted as dropped.
        try (var metrics = new PlatformMetrics("test")) {
            try (var log = new ToolCallLog(platform.jdbi())) {
                metrics.auditWriter("tool_calls", log, ToolCallLog::queued, ToolCallLog::dropped);
                log.record(new ToolCallLog.Entry(java.time.Instant.now(), "refused", UUID.randomUUID(),
                        UUID.randomUUID(), "/api/mcp", "t", "no such outcome", null, 1, List.of()));
            }
            assertEquals(1.0, value(metrics.scrape(), "lnp_audit_dropped_records_total", "table=\"tool_calls\""));
        }
    }

    /** The sample's value of a metric whose labels include all of {@code labels}; 0 when there is none. */
    public static double value(String text, String name, String... labels) {
        Pattern line = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{.*})? (\\S+)$"); // label values may hold "}"
        Matcher m = line.matcher(text);
        double sum = 0;
        boolean found = false;
        while (m.find()) {
            String set = m.group(1) == null ? "" : m.group(1);
            if (List.of(labels).stream().allMatch(set::contains)) {
                sum += Double.parseDouble(m.group(2));
                found = true;
            }
        }
        return found ? sum : 0;
    }
}
