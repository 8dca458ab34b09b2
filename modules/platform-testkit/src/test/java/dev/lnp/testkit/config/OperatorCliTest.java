package dev.lnp.testkit.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.core.cli.Main;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestDatabases;
import dev.lnp.testkit.TestPlatform;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The operator commands, run in-process against the same database as a running platform. */
@PlatformTest(plugins = "probe")
class OperatorCliTest {

    private record Result(int exit, String out, String err) {
        JsonNode json() {
            return Json.parse(out);
        }
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

    @Test
    void workspaceAndKeyLifecycleFromTheCommandLine(TestPlatform platform) {
        Result workspace = run("workspace", "create", "--name", "Acme", "--owner-email", "owner@acme.test", "--json");
        assertEquals(0, workspace.exit(), workspace.err());
        String ws = workspace.json().path("id").asText();
        assertEquals("Acme", workspace.json().path("name").asText());

        Result created = run("key", "create", "--workspace", ws, "--name", "zapier", "--preset", "read-only", "--json");
        assertEquals(0, created.exit(), created.err());
        String key = created.json().path("key").asText();
        String connection = created.json().path("connection_id").asText();
        assertTrue(key.startsWith("lnp_"));
        assertEquals(200, platform.get("/api/v1/probe/items", key).status());
        assertEquals(403, platform.post("/api/v1/probe/items", key, "{\"name\":\"x\"}").status());

        Result rotated = run("key", "rotate", "--connection", connection, "--grace", "PT0S", "--json");
        assertEquals(0, rotated.exit(), rotated.err());
        String newKey = rotated.json().path("key").asText();
        assertEquals(connection, rotated.json().path("connection_id").asText());
        assertNotEquals(key, newKey);
        assertEquals(401, platform.get("/api/v1/probe/items", key).status());
        assertEquals(200, platform.get("/api/v1/probe/items", newKey).status());

        Result listed = run("key", "list", "--workspace", ws, "--json");
        assertEquals(0, listed.exit(), listed.err());
        assertFalse(listed.out().contains(newKey.substring(10)), "secrets are never listed");
        assertEquals(2, listed.json().get(0).path("keys").size());

        Result legacy = run("key", "import-legacy", "--connection", connection, "--key", "wks_abcdefghijklmnop1234");
        assertEquals(0, legacy.exit(), legacy.err());

        Result revoked = run("key", "revoke", "--connection", connection);
        assertEquals(0, revoked.exit(), revoked.err());
        assertEquals(401, platform.get("/api/v1/probe/items", newKey).status());

        Result scoped = run("key", "create", "--workspace", ws, "--name", "writer", "--scopes", "probe.read,probe.write",
                "--expires-at", "2999-01-01T00:00:00Z", "--json");
        assertEquals(0, scoped.exit(), scoped.err());
        assertEquals(201, platform.post("/api/v1/probe/items", scoped.json().path("key").asText(), "{\"name\":\"x\"}").status());
    }

    @Test
    void badInputExitsNonZeroWithOneLine(TestPlatform platform) {
        String ws = run("workspace", "create", "--name", "B", "--owner-email", "b@b.test", "--json").json().path("id").asText();
        Result[] failures = {
                run("workspace", "create", "--name", "X", "--owner-email", "not-an-email"),
                run("key", "create", "--workspace", ws, "--name", "k", "--scopes", "nope.read"),
                run("key", "create", "--workspace", ws, "--name", "k", "--preset", "everything"),
                run("key", "create", "--workspace", ws, "--name", "k", "--preset", "read-only", "--expires-at", "tomorrow"),
                run("key", "create", "--workspace", "00000000-0000-0000-0000-000000000000", "--name", "k", "--preset", "read-only"),
                run("key", "rotate", "--connection", "00000000-0000-0000-0000-000000000000"),
                run("key", "create", "--workspace", ws, "--name", "k"),
        };
        for (Result failure : failures) {
            assertNotEquals(0, failure.exit(), failure.out());
            assertFalse(failure.err().isEmpty());
            assertTrue(failure.err().lines().count() <= 3, failure.err());
        }
        assertTrue(failures[1].err().contains("nope.read"), failures[1].err());
    }
}
