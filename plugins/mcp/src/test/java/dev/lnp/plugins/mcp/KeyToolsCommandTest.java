package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.OperatorCli;
import dev.lnp.testkit.OperatorCli.Result;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@code bin/platform key tools}: an operator sets a connection's MCP tool settings; the next request obeys them. */
@PlatformTest(plugins = {"mcp", "crm", "projects", "issues"})
class KeyToolsCommandTest {


    private static Set<String> allowed(TestPlatform platform, String key) {
        Set<String> names = new TreeSet<>();
        platform.get("/api/mcp/session", key).json().path("allowedToolNames").forEach(n -> names.add(n.asText()));
        return names;
    }

    @Test
    void theCommandSetsAllowAndDenyListsAndTheReadOnlySwitch(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("cli"));
        String connection = McpFixtures.connectionOf(platform, key).toString();

        Result allow = OperatorCli.run(platform, "key", "tools", "--connection", connection, "--allow", "projects_list,projects_create",
                "--deny", "projects_create");
        assertEquals(0, allow.exit(), allow.err());
        assertEquals(Set.of("projects_list"), allowed(platform, key));

        Result readOnly = OperatorCli.run(platform, "key", "tools", "--connection", connection, "--read-only-tools");
        assertEquals(0, readOnly.exit(), readOnly.err());
        Set<String> names = allowed(platform, key);
        assertTrue(names.contains("crm_list_contacts") && !names.contains("crm_create_contact"), names.toString());

        assertEquals(0, OperatorCli.run(platform, "key", "tools", "--connection", connection).exit());
        assertEquals(platform.platform().registry().tools().size(), allowed(platform, key).size());
    }

    @Test
    void anUnknownToolOrConnectionIsRefusedInOneLine(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("cli-bad"));
        String connection = McpFixtures.connectionOf(platform, key).toString();
        Result unknownTool = OperatorCli.run(platform, "key", "tools", "--connection", connection, "--deny", "projects_lst");
        assertEquals(1, unknownTool.exit());
        assertTrue(unknownTool.err().startsWith("error: unknown tool(s) [projects_lst]"), unknownTool.err());
        assertEquals(1, unknownTool.err().lines().count());
        Result unknownConnection = OperatorCli.run(platform, "key", "tools", "--connection", java.util.UUID.randomUUID().toString());
        assertEquals(1, unknownConnection.exit());
        assertTrue(unknownConnection.err().startsWith("error: no connection"), unknownConnection.err());
    }
}
