package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.WebhookReceiver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The sample Grafana dashboard (distribution/src/main/dist/grafana) parses, and every metric its queries use is
 * one the platform exports once it has served REST and MCP requests, refused one and delivered a webhook. MCP
 * tool calls are counted by tool and outcome.
 */
@PlatformTest(plugins = {"mcp", "crm", "projects", "issues"}, config = {
        "lnp.limits.rest_per_minute=30",
        "lnp.webhooks.allowed_networks=127.0.0.0/8",
        "lnp.webhooks.poll_interval_ms=200"})
class DashboardMetricsTest {

    private static final Path DASHBOARD = Path.of("../../distribution/src/main/dist/grafana/lnp-overview.json");
    private static final Pattern METRIC = Pattern.compile("\\b(?:http_server|hikaricp|jvm|process|system|lnp)_[a-z0-9_]+");

    @Test
    void everyMetricTheSampleDashboardQueriesIsExported(TestPlatform platform) throws Exception {
        JsonNode dashboard = Json.mapper().readTree(Files.readString(DASHBOARD));
        List<String> expressions = new ArrayList<>();
        dashboard.findValues("expr").forEach(e -> expressions.add(e.asText()));
        dashboard.findValues("query").forEach(q -> expressions.add(q.asText()));
        TreeSet<String> queried = new TreeSet<>();
        for (String expr : expressions) {
            Matcher m = METRIC.matcher(expr);
            while (m.find()) {
                queried.add(m.group());
            }
        }
        assertTrue(queried.size() >= 15, "the dashboard's metrics: " + queried);

        UUID ws = platform.createWorkspace("dashboard");
        String key = platform.fullAccessKey(ws);
        try (var receiver = new WebhookReceiver()) {
            String subscription = Json.object().put("url", receiver.url("/hook"))
                    .set("events", Json.mapper().valueToTree(List.of("crm.contact.created"))).toString();
            assertEquals(201, platform.post("/api/v1/webhooks/subscriptions", key, subscription).status());
            assertEquals(201, platform.post("/api/v1/crm/contacts", key, "{\"email\":\"dash@example.test\"}").status());
            McpFixtures.callTool(platform, key, "crm_list_contacts", "{}");
            int status = 0;
            for (int i = 0; i < 40 && status != 429; i++) {
                status = platform.get("/api/v1/crm/contacts", key).status();
            }
            assertEquals(429, status, "a refusal, so the refusal counter exists");
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!platform.metrics().contains("lnp_webhook_deliveries_total{") && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
        }

        String text = platform.metrics();
        List<String> missing = queried.stream()
                .filter(name -> !Pattern.compile("(?m)^" + Pattern.quote(name) + "[{ ]").matcher(text).find())
                .toList();
        assertEquals(List.of(), missing, "queried by the dashboard but not exported");
        assertTrue(text.contains("lnp_mcp_tool_calls_total{outcome=\"ok\",tool=\"crm_list_contacts\"}")
                || text.matches("(?s).*lnp_mcp_tool_calls_total\\{[^}]*tool=\"crm_list_contacts\"[^}]*} 1\\.0.*"), text);
    }
}
