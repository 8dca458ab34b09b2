package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The official MCP Java SDK's client (Streamable HTTP transport, bearer key in a header) against the platform:
 * initialize, list tools across pages, call a read and a write tool, and find a denied tool absent and refused.
 * The SDK validates every structuredContent against the tool's outputSchema, so a mismatch fails here.
 */
@PlatformTest(plugins = {"mcp", "crm", "projects", "issues"}, config = "lnp.mcp.page_size=5")
class OfficialJavaSdkClientTest {

    private static McpSyncClient client(TestPlatform platform, String key) {
        var transport = HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + platform.port())
                .endpoint("/api/mcp")
                .httpRequestCustomizer((request, method, uri, body, context) -> {
                    if (key != null) {
                        request.header("Authorization", "Bearer " + key);
                    }
                })
                .build();
        return McpClient.sync(transport)
                .clientInfo(new McpSchema.Implementation("lnp-sdk-test", "1.0.0"))
                .requestTimeout(Duration.ofSeconds(30))
                .initializationTimeout(Duration.ofSeconds(30))
                .build();
    }

    private static List<McpSchema.Tool> allTools(McpSyncClient client) {
        List<McpSchema.Tool> tools = new ArrayList<>();
        McpSchema.ListToolsResult page = client.listTools();
        tools.addAll(page.tools());
        while (page.nextCursor() != null) {
            page = client.listTools(page.nextCursor());
            tools.addAll(page.tools());
        }
        return tools;
    }

    @Test
    void theSdkClientInitializesListsAndCallsReadAndWriteToolsAndCannotUseADeniedOne(TestPlatform platform) {
        String key = platform.key(platform.createWorkspace("sdk"), "mcp.use", "projects.read", "projects.write",
                "contacts.read");
        try (McpSyncClient client = client(platform, key)) {
            McpSchema.InitializeResult init = client.initialize();
            assertEquals("2025-11-25", init.protocolVersion());
            assertEquals("lnp-platform", init.serverInfo().name());
            assertTrue(init.capabilities().tools() != null);

            List<McpSchema.Tool> tools = allTools(client);
            Set<String> names = new TreeSet<>();
            tools.forEach(t -> names.add(t.name()));
            assertEquals(Set.of("projects_list", "projects_get", "projects_create", "projects_update", "projects_delete",
                    "projects_cycle_create", "projects_cycle_get", "projects_cycle_update", "projects_cycle_close",
                    "crm_list_contacts", "crm_search_contacts", "crm_get_contact"), names);
            assertEquals(names.size(), tools.size(), "no tool twice across pages");
            McpSchema.Tool delete = tools.stream().filter(t -> t.name().equals("projects_delete")).findFirst().orElseThrow();
            assertTrue(delete.annotations().destructiveHint());
            assertFalse(delete.annotations().readOnlyHint());
            assertTrue(tools.stream().filter(t -> t.name().equals("projects_list")).findFirst().orElseThrow()
                    .annotations().readOnlyHint());

            McpSchema.CallToolResult created = client.callTool(
                    new McpSchema.CallToolRequest("projects_create", Map.of("name", "From the SDK")));
            assertFalse(created.isError(), created.toString());
            @SuppressWarnings("unchecked")
            Map<String, Object> project = (Map<String, Object>) created.structuredContent();
            assertEquals("From the SDK", project.get("name"));
            assertTrue(((McpSchema.TextContent) created.content().get(0)).text().contains("From the SDK"));

            McpSchema.CallToolResult listed = client.callTool(new McpSchema.CallToolRequest("projects_list", Map.of()));
            assertFalse(listed.isError(), listed.toString());
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> items = (List<Map<String, Object>>) ((Map<String, Object>) listed.structuredContent())
                    .get("items");
            assertEquals(project.get("id"), items.get(0).get("id"));

            McpSchema.CallToolResult invalid = client.callTool(
                    new McpSchema.CallToolRequest("projects_create", Map.of("title", "wrong field")));
            assertTrue(invalid.isError(), "bad arguments are a tool execution error the model can read");

            assertFalse(names.contains("crm_create_contact"));
            McpError denied = assertThrows(McpError.class, () -> client.callTool(
                    new McpSchema.CallToolRequest("crm_create_contact", Map.of("email", "no@example.com"))));
            assertEquals(-32010, denied.getJsonRpcError().code(), denied.toString());

            client.ping();
        }
    }

    @Test
    void withoutAKeyTheSdkClientCannotInitialize(TestPlatform platform) {
        try (McpSyncClient client = client(platform, null)) {
            // Any RuntimeException passed before (a timeout or a parse failure would have too): the failure must be
            // the transport's report of the server's 401.
            RuntimeException failure = assertThrows(RuntimeException.class, client::initialize);
            StringBuilder chain = new StringBuilder();
            for (Throwable t = failure; t != null; t = t.getCause()) {
                chain.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage()).append(" <- ");
            }
            org.junit.jupiter.api.Assertions.assertTrue(chain.toString().contains("McpHttpClientTransportAuthorizationException"),
                    chain.toString());
        }
    }
}
