package dev.lnp.testkit.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.OperatorCli;
import dev.lnp.testkit.OperatorCli.Result;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        Result table = OperatorCli.run(platform, "key", "list", "--workspace", ws);
        assertEquals(0, table.exit(), table.err());
        assertTrue(table.out().lines().findFirst().orElse("").matches("CONNECTION\\s+NAME\\s+SCOPES"), table.out());
        assertTrue(table.out().lines().skip(1).findFirst().orElse("").startsWith(connection), table.out());

        Result legacy = OperatorCli.runWithInput(platform, connection + ",wks_abcdefghijklmnop1234\n", "key", "import-legacy");
        assertEquals(0, legacy.exit(), legacy.err());
        assertEquals(200, platform.get("/api/v1/probe/items", "wks_abcdefghijklmnop1234").status(),
                "accepted out of the box: the compatibility period is open while lnp.keys.legacy_until is unset");

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

    @Test
    void legacyKeysAreImportedInBulkFromStandardInputOrAFileAllOrNone(TestPlatform platform, @TempDir Path dir)
            throws Exception {
        String ws = OperatorCli.run(platform, "workspace", "create", "--name", "L", "--owner-email", "l@l.test", "--json")
                .json().path("id").asText();
        String a = OperatorCli.run(platform, "key", "create", "--workspace", ws, "--name", "a", "--scopes", "probe.read",
                "--json").json().path("connection_id").asText();
        String b = OperatorCli.run(platform, "key", "create", "--workspace", ws, "--name", "b", "--scopes", "probe.read",
                "--json").json().path("connection_id").asText();
        String k1 = "wks_legacyKeyNumberOne_0001";
        String k2 = "wks_legacyKeyNumberTwo_0002";
        String k3 = "wks_legacyKeyNumberThree_03";

        Result stdin = OperatorCli.runWithInput(platform, "# exported from the old system\n" + a + "," + k1 + "\n\n"
                + b + ", " + k2 + "\n", "key", "import-legacy");
        assertEquals(0, stdin.exit(), stdin.err());
        assertTrue(stdin.out().contains("Imported 2 legacy key(s) for 2 connection(s)"), stdin.out());
        assertEquals(200, platform.get("/api/v1/probe/items", k1).status());
        assertEquals(200, platform.get("/api/v1/probe/items", k2).status());

        Path file = dir.resolve("keys.csv");
        Files.writeString(file, a + "," + k1 + "\n" + a + "," + k3 + "\n");
        Result fromFile = OperatorCli.run(platform, "key", "import-legacy", "--file", file.toString());
        assertEquals(0, fromFile.exit(), fromFile.err());
        assertTrue(fromFile.out().contains("Imported 1 legacy key(s)") && fromFile.out().contains("1 already imported"),
                fromFile.out());
        assertEquals(200, platform.get("/api/v1/probe/items", k3).status());

        String k4 = "wks_legacyKeyNumberFour_004";
        Result bad = OperatorCli.runWithInput(platform, a + "," + k4 + "\n"
                + "not-a-uuid," + k4 + "x\n"
                + b + "," + k1 + "\n"
                + b + ",lnp_notALegacyKey_000000\n"
                + "00000000-0000-0000-0000-000000000000," + k4 + "y\n"
                + a + "," + k4 + "\n", "key", "import-legacy");
        assertEquals(1, bad.exit(), bad.out());
        assertEquals(1, bad.err().lines().count(), bad.err());
        assertTrue(bad.err().contains("line 2") && bad.err().contains("not a UUID"), bad.err());
        assertFalse(bad.err().contains(k4) || bad.err().contains(k1), "keys are never echoed: " + bad.err());
        Result rest = OperatorCli.runWithInput(platform, a + "," + k4 + "\n"
                + b + "," + k1 + "\n"
                + b + ",lnp_notALegacyKey_000000\n"
                + "00000000-0000-0000-0000-000000000000," + k4 + "y\n"
                + a + "," + k4 + "\n", "key", "import-legacy");
        assertEquals(1, rest.exit(), rest.out());
        for (String expected : List.of("line 2: this key is already imported for another connection",
                "line 3: the key must start with wks_", "line 4: no connection", "line 5: the same key as line 1")) {
            assertTrue(rest.err().contains(expected), expected + " in " + rest.err());
        }
        assertEquals(401, platform.get("/api/v1/probe/items", k4).status(), "nothing of a bad input is imported");

        assertNotEquals(0, OperatorCli.runWithInput(platform, "", "key", "import-legacy").exit(), "empty input");
        assertNotEquals(0, OperatorCli.run(platform, "key", "import-legacy", "--file", dir.resolve("missing").toString()).exit());
        Result argv = OperatorCli.run(platform, "key", "import-legacy", "--connection", a, "--key", k4);
        assertEquals(2, argv.exit(), "keys are not accepted on the command line");
    }
}
