package dev.lnp.plugins.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.core.cli.Main;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestDatabases;
import dev.lnp.testkit.TestPlatform;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code bin/platform key tools}: an operator sets a connection's MCP tool settings; the next request obeys them. */
@PlatformTest(plugins = {"mcp", "crm", "projects", "issues"})
class KeyToolsCommandTest {

    private record Result(int exit, String out, String err) {
    }

    @BeforeEach
    void pointTheCliAtTheDatabase(TestPlatform platform) {
        System.setProperty("lnp.database.url", platform.databaseUrl());
        System.setProperty("lnp.database.user", TestDatabases.server().user());
        System.setProperty("lnp.database.password", TestDatabases.server().password());
        System.setProperty("lnp.plugins.dir", "target/no-plugins");
    }

    @AfterEach
    void clear() {
        for (String key : new String[] {"lnp.database.url", "lnp.database.user", "lnp.database.password", "lnp.plugins.dir"}) {
            System.clearProperty(key);
        }
    }

    private static synchronized Result run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        var outBytes = new ByteArrayOutputStream();
        var errBytes = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
            int exit = Main.run(args);
            return new Result(exit, outBytes.toString(StandardCharsets.UTF_8).strip(),
                    errBytes.toString(StandardCharsets.UTF_8).strip());
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    private static Set<String> allowed(TestPlatform platform, String key) {
        Set<String> names = new TreeSet<>();
        platform.get("/api/mcp/session", key).json().path("allowedToolNames").forEach(n -> names.add(n.asText()));
        return names;
    }

    @Test
    void theCommandSetsAllowAndDenyListsAndTheReadOnlySwitch(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("cli"));
        String connection = McpFixtures.connectionOf(platform, key).toString();

        Result allow = run("key", "tools", "--connection", connection, "--allow", "projects_list,projects_create",
                "--deny", "projects_create");
        assertEquals(0, allow.exit(), allow.err());
        assertEquals(Set.of("projects_list"), allowed(platform, key));

        Result readOnly = run("key", "tools", "--connection", connection, "--read-only-tools");
        assertEquals(0, readOnly.exit(), readOnly.err());
        Set<String> names = allowed(platform, key);
        assertTrue(names.contains("crm_list_contacts") && !names.contains("crm_create_contact"), names.toString());

        assertEquals(0, run("key", "tools", "--connection", connection).exit());
        assertEquals(platform.platform().registry().tools().size(), allowed(platform, key).size());
    }

    @Test
    void anUnknownToolOrConnectionIsRefusedInOneLine(TestPlatform platform) {
        String key = platform.fullAccessKey(platform.createWorkspace("cli-bad"));
        String connection = McpFixtures.connectionOf(platform, key).toString();
        Result unknownTool = run("key", "tools", "--connection", connection, "--deny", "projects_lst");
        assertEquals(1, unknownTool.exit());
        assertTrue(unknownTool.err().startsWith("error: unknown tool(s) [projects_lst]"), unknownTool.err());
        assertEquals(1, unknownTool.err().lines().count());
        Result unknownConnection = run("key", "tools", "--connection", java.util.UUID.randomUUID().toString());
        assertEquals(1, unknownConnection.exit());
        assertTrue(unknownConnection.err().startsWith("error: no connection"), unknownConnection.err());
    }
}
