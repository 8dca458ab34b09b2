package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import org.junit.jupiter.api.Test;

/** The platform's body cap holds on the raw MCP route too: the JSON-RPC handler never sees an oversized body. */
@PlatformTest(plugins = {"mcp", "projects"}, config = "lnp.http.max_body_bytes=2048")
class McpBodyLimitTest {

    @Test
    void aBodyOverTheLimitIs413BeforeTheProtocolHandlerRuns(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("big"));
        String big = McpFixtures.request(1, "tools/call", "{\"name\":\"projects_create\",\"arguments\":{\"name\":\""
                + "x".repeat(3000) + "\"}}");
        TestResponse response = McpFixtures.post(platform, key, McpFixtures.LATEST, big);
        assertEquals(413, response.status(), response.body());
        assertEquals("payload_too_large", response.json().path("code").asText());
        assertEquals(200, McpFixtures.rpc(platform, key, McpFixtures.LATEST, "ping", null).status());
        assertEquals(0, McpFixtures.callTool(platform, key, "projects_list", "{}").path("structuredContent")
                .path("items").size(), "nothing was created");
    }
}
