package dev.lnp.testkit.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.OperatorCli;
import dev.lnp.testkit.OperatorCli.Result;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/** The operator commands, run in-process against the same database as a running platform. */
@PlatformTest(plugins = "probe")
class OperatorCliTest {


    @Test
    void workspaceAndKeyLifecycleFromTheCommandLine(TestPlatform platform) {
        Result workspace = OperatorCli.run(platform, "workspace", "create", "--name", "Acme", "--owner-email", "owner@acme.test", "--json");
        assertEquals(0, workspace.exit(), workspace.err());
        String ws = workspace.json().path("id").asText();
        assertEquals("Acme", workspace.json().path("name").asText());

        Result created = OperatorCli.run(platform, "key", "create", "--workspace", ws, "--name", "zapier", "--preset", "read-only", "--json");
        assertEquals(0, created.exit(), created.err());
        String key = created.json().path("key").asText();
        String connection = created.json().path("connection_id").asText();
        assertTrue(key.startsWith("lnp_"));
        assertEquals(200, platform.get("/api/v1/probe/items", key).status());
        assertEquals(403, platform.post("/api/v1/probe/items", key, "{\"name\":\"x\"}").status());

        Result rotated = OperatorCli.run(platform, "key", "rotate", "--connection", connection, "--grace", "PT0S", "--json");
        assertEquals(0, rotated.exit(), rotated.err());
        String newKey = rotated.json().path("key").asText();
        assertEquals(connection, rotated.json().path("connection_id").asText());
        assertNotEquals(key, newKey);
        assertEquals(401, platform.get("/api/v1/probe/items", key).status());
        assertEquals(200, platform.get("/api/v1/probe/items", newKey).status());

        Result listed = OperatorCli.run(platform, "key", "list", "--workspace", ws, "--json");
        assertEquals(0, listed.exit(), listed.err());
        assertFalse(listed.out().contains(newKey.substring(10)), "secrets are never listed");
        assertEquals(2, listed.json().get(0).path("keys").size());

        Result legacy = OperatorCli.run(platform, "key", "import-legacy", "--connection", connection, "--key", "wks_abcdefghijklmnop1234");
        assertEquals(0, legacy.exit(), legacy.err());

        Result revoked = OperatorCli.run(platform, "key", "revoke", "--connection", connection);
        assertEquals(0, revoked.exit(), revoked.err());
        assertEquals(401, platform.get("/api/v1/probe/items", newKey).status());

        Result scoped = OperatorCli.run(platform, "key", "create", "--workspace", ws, "--name", "writer", "--scopes", "probe.read,probe.write",
                "--expires-at", "2999-01-01T00:00:00Z", "--json");
        assertEquals(0, scoped.exit(), scoped.err());
        assertEquals(201, platform.post("/api/v1/probe/items", scoped.json().path("key").asText(), "{\"name\":\"x\"}").status());
    }

    @Test
    void badInputExitsNonZeroWithOneLine(TestPlatform platform) {
        String ws = OperatorCli.run(platform, "workspace", "create", "--name", "B", "--owner-email", "b@b.test", "--json").json().path("id").asText();
        Result[] failures = {
                OperatorCli.run(platform, "workspace", "create", "--name", "X", "--owner-email", "not-an-email"),
                OperatorCli.run(platform, "key", "create", "--workspace", ws, "--name", "k", "--scopes", "nope.read"),
                OperatorCli.run(platform, "key", "create", "--workspace", ws, "--name", "k", "--preset", "everything"),
                OperatorCli.run(platform, "key", "create", "--workspace", ws, "--name", "k", "--preset", "read-only", "--expires-at", "tomorrow"),
                OperatorCli.run(platform, "key", "create", "--workspace", "00000000-0000-0000-0000-000000000000", "--name", "k", "--preset", "read-only"),
                OperatorCli.run(platform, "key", "rotate", "--connection", "00000000-0000-0000-0000-000000000000"),
                OperatorCli.run(platform, "key", "create", "--workspace", ws, "--name", "k"),
        };
        for (Result failure : failures) {
            assertNotEquals(0, failure.exit(), failure.out());
            assertFalse(failure.err().isEmpty());
            assertTrue(failure.err().lines().count() <= 3, failure.err());
        }
        assertTrue(failures[1].err().contains("nope.read"), failures[1].err());
    }
}
