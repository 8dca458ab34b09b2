package dev.lnp.testkit.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.OperatorCli;
import dev.lnp.testkit.OperatorCli.Result;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code platform workspace list} and {@code platform workspace modules}, against a running platform's database. */
@PlatformTest(plugins = "probe")
class WorkspaceModulesCliTest {

    @Test
    void switchingAModuleOffHidesItsRoutesForThatWorkspaceOnlyUntilItIsSwitchedOnAgain(TestPlatform platform) {
        UUID ws = platform.createWorkspace("modules-a");
        UUID other = platform.createWorkspace("modules-b");
        String key = platform.fullAccessKey(ws);
        String otherKey = platform.fullAccessKey(other);

        Result shown = OperatorCli.run(platform, "workspace", "modules", "--workspace", ws.toString(), "--json");
        assertEquals(0, shown.exit(), shown.err());
        assertEquals(ws.toString(), shown.json().path("workspace_id").asText());
        assertEquals(Boolean.TRUE, enabled(shown.json(), "probe"));

        Result off = OperatorCli.run(platform, "workspace", "modules", "--workspace", ws.toString(), "--disable", "probe", "--json");
        assertEquals(0, off.exit(), off.err());
        assertEquals(Boolean.FALSE, enabled(off.json(), "probe"));
        assertEquals(404, platform.get("/api/v1/probe/items", key).status());
        assertEquals(200, platform.get("/api/v1/probe/items", otherKey).status(), "other workspaces keep the module");

        Result listed = OperatorCli.run(platform, "workspace", "list", "--json");
        assertEquals(0, listed.exit(), listed.err());
        JsonNode row = find(listed.json(), ws.toString());
        assertEquals("modules-a", row.path("name").asText());
        assertEquals("probe", row.path("disabled_modules").path(0).asText());
        assertEquals(0, find(listed.json(), other.toString()).path("disabled_modules").size());

        Result text = OperatorCli.run(platform, "workspace", "list");
        assertEquals(0, text.exit(), text.err());
        assertTrue(text.out().contains(ws + "  modules-a") && text.out().contains("modules off: probe"), text.out());

        Result on = OperatorCli.run(platform, "workspace", "modules", "--workspace", ws.toString(), "--enable", "probe");
        assertEquals(0, on.exit(), on.err());
        assertTrue(on.out().lines().anyMatch(l -> l.equals("probe  on")), on.out());
        assertEquals(200, platform.get("/api/v1/probe/items", key).status());
    }

    @Test
    void mistakesAreRefusedWithAOneLineErrorAndChangeNothing(TestPlatform platform) {
        UUID ws = platform.createWorkspace("modules-errors");
        String id = ws.toString();

        Result unknown = OperatorCli.run(platform, "workspace", "modules", "--workspace", id, "--disable", "probe,nope");
        assertEquals(1, unknown.exit());
        assertTrue(unknown.err().startsWith("error: unknown module 'nope'") && unknown.err().contains("probe"), unknown.err());

        Result unknownEnable = OperatorCli.run(platform, "workspace", "modules", "--workspace", id, "--enable", "nope");
        assertEquals(1, unknownEnable.exit());
        assertTrue(unknownEnable.err().startsWith("error: unknown module 'nope'"), unknownEnable.err());

        Result both = OperatorCli.run(platform, "workspace", "modules", "--workspace", id, "--enable", "probe", "--disable", "probe");
        assertEquals(1, both.exit());
        assertTrue(both.err().contains("both --enable and --disable"), both.err());

        Result core = OperatorCli.run(platform, "workspace", "modules", "--workspace", id, "--disable", "core");
        assertEquals(1, core.exit(), "the core is not a module a workspace can switch off");

        Result missing = OperatorCli.run(platform, "workspace", "modules", "--workspace", UUID.randomUUID().toString(), "--disable", "probe");
        assertEquals(1, missing.exit());
        assertTrue(missing.err().startsWith("error: no workspace "), missing.err());

        Result malformed = OperatorCli.run(platform, "workspace", "modules", "--workspace", "not-a-uuid");
        assertEquals(2, malformed.exit());
        assertTrue(malformed.err().startsWith("error: ") && malformed.err().contains("--workspace"), malformed.err());

        Result after = OperatorCli.run(platform, "workspace", "modules", "--workspace", id, "--json");
        assertEquals(Boolean.TRUE, enabled(after.json(), "probe"), "a refused change leaves the workspace as it was");
        assertEquals(200, platform.get("/api/v1/probe/items", platform.fullAccessKey(ws)).status());
    }

    @Test
    void aModuleNoLongerInstalledIsShownAndCanBeSwitchedBackOn(TestPlatform platform) {
        UUID ws = platform.createWorkspace("modules-removed");
        platform.jdbi().useHandle(h -> h.execute(
                "UPDATE lnp_core.workspaces SET disabled_modules = '{retired}' WHERE id = ?", ws));

        Result shown = OperatorCli.run(platform, "workspace", "modules", "--workspace", ws.toString(), "--json");
        assertEquals(0, shown.exit(), shown.err());
        JsonNode retired = module(shown.json(), "retired");
        assertEquals(false, retired.path("installed").asBoolean(true));
        assertEquals(false, retired.path("enabled").asBoolean(true));

        Result cleared = OperatorCli.run(platform, "workspace", "modules", "--workspace", ws.toString(), "--enable", "retired", "--json");
        assertEquals(0, cleared.exit(), cleared.err());
        assertTrue(module(cleared.json(), "retired").isMissingNode(), cleared.out());
    }

    private static Boolean enabled(JsonNode out, String module) {
        JsonNode m = module(out, module);
        return m.isMissingNode() ? null : m.path("enabled").asBoolean();
    }

    private static JsonNode module(JsonNode out, String module) {
        for (JsonNode m : out.path("modules")) {
            if (m.path("id").asText().equals(module)) {
                return m;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    private static JsonNode find(JsonNode array, String id) {
        for (JsonNode w : array) {
            if (w.path("id").asText().equals(id)) {
                return w;
            }
        }
        throw new AssertionError("workspace " + id + " not listed: " + array);
    }
}
