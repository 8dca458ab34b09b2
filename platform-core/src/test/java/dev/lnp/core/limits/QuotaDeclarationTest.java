package dev.lnp.core.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.Json;
import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.mcp.ToolAnnotations;
import dev.lnp.api.mcp.ToolDescriptor;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.plugins.PluginRegistry;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Plugins declare their quotas; the core knows none by name and refuses a quota nobody declared. */
class QuotaDeclarationTest {

    private static RouteSpec writeRoute(String quota) {
        return RouteSpec.post("/api/v1/notes").scope("notes.write").quota(quota).handler(req -> ApiResponse.of(Map.of()));
    }

    private static ToolDescriptor tool(String quota) {
        return ToolDescriptor.builder("notes_create")
                .title("Create a note")
                .description("Creates a note")
                .scope("notes.write")
                .inputSchema(Json.parse("{\"type\":\"object\"}"))
                .outputSchema(Json.parse("{\"type\":\"object\"}"))
                .annotations(ToolAnnotations.create())
                .quota(quota)
                .handler(call -> ToolResult.of(Json.object()));
    }

    private static PluginRegistry registry(String pluginId, PlatformPlugin plugin) {
        var registry = new PluginRegistry();
        registry.register(pluginId, plugin);
        return registry;
    }

    private static PlatformConfig config(Map<String, String> values) {
        return PlatformConfig.load(Path.of("no-such-file.yaml"), Map.of(), values);
    }

    @Test
    void aRouteUsingAnUndeclaredQuotaFailsStartUp() {
        var e = assertThrows(IllegalStateException.class, () -> registry("notes", r -> r
                .scope("notes.write", "Write notes").route(writeRoute("notes"))));
        assertTrue(e.getMessage().contains("notes: route POST /api/v1/notes uses the quota notes, which this plugin "
                + "does not declare"), e.getMessage());
    }

    @Test
    void aToolUsingAnUndeclaredQuotaFailsStartUp() {
        var e = assertThrows(IllegalStateException.class, () -> registry("notes", r -> r
                .scope("notes.write", "Write notes").tool(tool("notes"))));
        assertTrue(e.getMessage().contains("tool notes_create uses the quota notes"), e.getMessage());
    }

    @Test
    void aQuotaBelongsToTheOnePluginThatDeclaredIt() {
        var registry = new PluginRegistry();
        registry.register("first", r -> r.quota("shared", 10));
        var e = assertThrows(IllegalStateException.class, () -> registry.register("second", r -> r.quota("shared", 5)));
        assertEquals("second: quota shared is already declared by first", e.getMessage());
        var borrowed = assertThrows(IllegalStateException.class, () -> registry.register("third",
                r -> r.scope("notes.write", "Write notes").route(writeRoute("shared"))));
        assertTrue(borrowed.getMessage().contains("which this plugin does not declare"), borrowed.getMessage());
    }

    @Test
    void quotaNamesAndDefaultsAreChecked() {
        var registry = new PluginRegistry();
        assertThrows(IllegalArgumentException.class, () -> registry.register("a", r -> r.quota("Notes", 1)));
        assertThrows(IllegalArgumentException.class, () -> registry.register("b", r -> r.quota("notes.monthly", 1)));
        var negative = assertThrows(IllegalArgumentException.class, () -> registry.register("c", r -> r.quota("n", -1)));
        assertTrue(negative.getMessage().contains("0 or more"), negative.getMessage());
    }

    @Test
    void theLimitIsTheWorkspacesThenTheDeploymentsThenThePluginsDefault() {
        var registry = new PluginRegistry();
        registry.register("notes", r -> r.scope("notes.write", "Write notes").quota("notes", 50)
                .quota("attachments", 7).route(writeRoute("notes")));
        var limits = QuotaLimits.from(registry, config(Map.of("lnp.quotas.notes.monthly", "20")));
        assertEquals(20, limits.limit("notes", Map.of()));
        assertEquals(7, limits.limit("attachments", Map.of()));
        assertEquals(3, limits.limit("notes", Map.of("notes", 3L)));
        assertEquals(0, limits.limit("attachments", Map.of("attachments", 0L)));
        assertThrows(IllegalStateException.class, () -> limits.limit("undeclared", Map.of()));
    }

    @Test
    void theOldSettingNameOfAQuotaIsStillRead() {
        var registry = registry("crm", r -> r.quota("crm", 100_000));
        assertEquals(12, QuotaLimits.from(registry, config(Map.of("lnp.limits.crm_monthly_quota", "12")))
                .limit("crm", Map.of()));
        assertEquals(13, QuotaLimits.from(registry, config(Map.of("lnp.limits.crm_monthly_quota", "12",
                "lnp.quotas.crm.monthly", "13"))).limit("crm", Map.of()), "the new name wins");
    }

    @Test
    void aConfiguredLimitThatIsNotAWholeNumberFailsStartUp() {
        var registry = registry("notes", r -> r.quota("notes", 1));
        for (String bad : new String[] {"-1", "lots", "1.5"}) {
            var e = assertThrows(IllegalStateException.class,
                    () -> QuotaLimits.from(registry, config(Map.of("lnp.quotas.notes.monthly", bad))));
            assertEquals("Configuration lnp.quotas.notes.monthly must be a whole number of 0 or more, not '" + bad
                    + "'", e.getMessage());
        }
    }
}
