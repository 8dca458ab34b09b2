package dev.lnp.plugins.trials;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.Browser;
import dev.lnp.testkit.TestPlatform;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * The "Done when": an agent that knows nothing but the base URL reads the manifest, follows its URLs,
 * solves the challenge, submits and polls with back-off; headless Chromium opens the mailed link as the owner
 * and approves; the agent receives the key once; the official MCP Java SDK client lists tools and calls one, and
 * the session shows the remaining calls drop. The exchange is written to target/agent-trial-transcript.md.
 */
class AgentTrialEndToEndTest {

    private static Mailbox mail;
    private static TestPlatform platform;
    private static Browser chromium;
    private static final List<String> TRANSCRIPT = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        chromium = Browser.start();
        mail = new Mailbox();
        Map<String, String> config = new HashMap<>(mail.platformConfig());
        platform = TestPlatform.start("trials_e2e", List.of("trials", "mcp", "crm", "projects", "issues"), null,
                config);
    }

    @AfterAll
    static void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
        if (platform != null) {
            platform.close();
        }
        if (mail != null) {
            mail.close();
        }
        if (!TRANSCRIPT.isEmpty()) {
            Files.createDirectories(Path.of("target"));
            Files.writeString(Path.of("target/agent-trial-transcript.md"), String.join("\n", TRANSCRIPT) + "\n");
        }
    }

    /** The agent's HTTP: nothing but java.net.http and the URLs it was given. */
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static HttpResponse<String> call(String method, String url, String bearer, String json) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Accept", "application/json");
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        if (json != null) {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        String path = URI.create(url).getPath();
        TRANSCRIPT.add("### " + method + " " + path + (bearer == null ? "" : "  (Authorization: Bearer "
                + bearer.substring(0, Math.min(4, bearer.length())) + "…)"));
        if (json != null) {
            TRANSCRIPT.add("```json\n" + redact(Json.parse(json).toPrettyString()) + "\n```");
        }
        TRANSCRIPT.add("→ " + r.statusCode() + r.headers().firstValue("Retry-After").map(v -> " (Retry-After: " + v + ")")
                .orElse(""));
        if (!r.body().isBlank()) {
            TRANSCRIPT.add("```json\n" + redact(r.body().startsWith("{") ? Json.parse(r.body()).toPrettyString()
                    : r.body()) + "\n```");
        }
        return r;
    }

    private static String redact(String text) {
        return text.replaceAll("(lnp_|trq_)[A-Za-z0-9_-]{20,}", "$1…(secret, shown once)")
                .replaceAll("\"token\" : \"[^\"]{40,}\"", "\"token\" : \"…(sealed, opaque)\"")
                .replaceAll("http://(127\\.0\\.0\\.1|localhost):\\d+", "https://platform.example");
    }

    @Test
    void anAgentWithOnlyTheBaseUrlEarnsATrialAndUsesItThroughTheOfficialMcpSdk() throws Exception {
        String base = "http://127.0.0.1:" + platform.port();
        String owner = "owner-" + UUID.randomUUID().toString().substring(0, 6) + "@example.net";
        String workspace = "Acme sales assistant trial";

        // 1. The manifest.
        JsonNode manifest = Json.parse(call("GET", base + "/.well-known/agent-access.json", null, null).body());
        int interval = manifest.path("polling").path("initial_interval_seconds").asInt();
        int maxInterval = manifest.path("polling").path("max_interval_seconds").asInt();
        // 2. The challenge, solved by reading the question.
        JsonNode challenge = Json.parse(call("GET", manifest.path("steps").path("challenge").path("url").asText(),
                null, null).body());
        long n = Agent.solve(challenge.path("question").asText());
        String answer = sha256(n + ":" + challenge.path("challenge_id").asText() + ":" + owner.toLowerCase() + ":"
                + workspace);
        // 3. The request.
        ObjectNode request = Json.object().put("owner_email", owner).put("workspace_name", workspace)
                .put("purpose", "Try the CRM and ticket tools before connecting our sales assistant.");
        request.putObject("agent").put("name", "Scout").put("vendor", "Example Labs").put("version", "1.4.2");
        request.putObject("challenge").put("token", challenge.path("token").asText()).put("answer", answer);
        HttpResponse<String> submitted = call("POST", manifest.path("steps").path("request").path("url").asText(),
                null, request.toString());
        assertEquals(202, submitted.statusCode(), submitted.body());
        JsonNode accepted = Json.parse(submitted.body());
        String token = accepted.path("request_token").asText();
        String statusUrl = accepted.path("status_url").asText();

        // 4. Polling with back-off, in the background, until a terminal state or the key.
        CompletableFuture<JsonNode> approvedAnswer = CompletableFuture.supplyAsync(() -> {
            int wait = interval;
            try {
                for (int i = 0; i < 60; i++) {
                    HttpResponse<String> r = call("GET", statusUrl, token, null);
                    JsonNode body = Json.parse(r.body());
                    String state = body.path("state").asText();
                    if (r.statusCode() == 200 && !"pending".equals(state)) {
                        return body;
                    }
                    int retryAfter = r.headers().firstValue("Retry-After").map(Integer::parseInt).orElse(wait);
                    wait = Math.min(maxInterval, Math.max(retryAfter, (int) Math.ceil(wait * 1.5)));
                    Thread.sleep(Math.max(retryAfter, wait) * 1000L);
                }
                throw new AssertionError("no decision");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        // 5. The owner: the mailed link in headless Chromium, the binding code checked, Approve pressed.
        String link = mail.awaitApprovalLink(owner, 1);
        var browser = chromium.driver();
        browser.get(link);
        assertEquals(accepted.path("binding_code").asText(), chromium.waitFor(By.cssSelector(".code")).getText());
        assertTrue(browser.getPageSource().contains("Scout"));
        chromium.shoot("trial-01-approval-page-signed-out");
        // Not signed in: the page mails a sign-in link to the owner's address; the link brings the owner back.
        browser.findElement(By.cssSelector("button[value=sign-in]")).click();
        String signIn = mail.awaitLink(owner, Mailbox.SIGN_IN_LINK, 1);
        browser.get(signIn);
        chromium.waitFor(By.id("finish-sign-in")).click();
        chromium.waitFor(By.cssSelector("button.approve"));
        assertEquals(accepted.path("binding_code").asText(), browser.findElement(By.cssSelector(".code")).getText());
        chromium.shoot("trial-02-approval-page-owner");
        browser.findElement(By.cssSelector("button.approve")).click();
        chromium.waitFor(By.cssSelector("[role=status]"));
        assertTrue(browser.getPageSource().contains("Approved"), browser.getPageSource());
        chromium.shoot("trial-03-approved");

        JsonNode approved = approvedAnswer.get(90, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals("approved", approved.path("state").asText(), approved.toString());
        String key = approved.path("api_key").asText();
        assertTrue(key.startsWith("lnp_"));
        // Exactly once.
        Thread.sleep(interval * 1000L);
        HttpResponse<String> again = call("GET", statusUrl, token, null);
        assertEquals(409, again.statusCode());
        assertFalse(again.body().contains(key));

        // 6. The official MCP Java SDK client with the key.
        int before = Json.parse(call("GET", base + "/api/mcp/session", key, null).body()).path("toolCalls")
                .path("remaining").asInt();
        assertEquals(250, before);
        var transport = HttpClientStreamableHttpTransport.builder(base).endpoint("/api/mcp")
                .httpRequestCustomizer((req, method, uri, body, context) -> req.header("Authorization", "Bearer " + key))
                .build();
        try (McpSyncClient client = McpClient.sync(transport)
                .clientInfo(new McpSchema.Implementation("scout", "1.4.2"))
                .requestTimeout(Duration.ofSeconds(30)).initializationTimeout(Duration.ofSeconds(30)).build()) {
            client.initialize();
            List<String> names = new ArrayList<>();
            McpSchema.ListToolsResult page = client.listTools();
            page.tools().forEach(t -> names.add(t.name()));
            while (page.nextCursor() != null) {
                page = client.listTools(page.nextCursor());
                page.tools().forEach(t -> names.add(t.name()));
            }
            assertTrue(names.contains("crm_list_contacts"), names.toString());
            McpSchema.CallToolResult contacts = client.callTool(
                    new McpSchema.CallToolRequest("crm_list_contacts", Map.of()));
            assertFalse(contacts.isError(), contacts.toString());
            TRANSCRIPT.add("### MCP tools/call crm_list_contacts (official Java SDK client)");
            TRANSCRIPT.add("→ " + names.size() + " tools listed; first contact: "
                    + ((Map<?, ?>) ((List<?>) ((Map<?, ?>) contacts.structuredContent()).get("items")).get(0))
                    .get("email"));
        }
        int after = Json.parse(call("GET", base + "/api/mcp/session", key, null).body()).path("toolCalls")
                .path("remaining").asInt();
        assertEquals(before - 1, after);
        // The key is for MCP only.
        assertEquals(403, call("GET", base + "/api/v1/crm/contacts", key, null).statusCode());
    }

    private static String sha256(String text) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
