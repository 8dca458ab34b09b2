package dev.lnp.core.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.console.ConsoleColumn;
import dev.lnp.api.console.ConsoleSection;
import dev.lnp.api.console.RowPage;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the registry refuses when a plugin declares console sections. */
class ConsoleSectionRegistrationTest {

    private static ConsoleSection.Builder section(String id) {
        return ConsoleSection.builder(id, "Things").columns(ConsoleColumn.of("Name", "name"))
                .list(ctx -> new RowPage(List.of(), 0));
    }

    private static PluginRegistry register(PlatformPlugin plugin) {
        var registry = new PluginRegistry();
        registry.register("things", plugin);
        return registry;
    }

    @Test
    void theRegistryRefusesTwoSectionsOfOneNameAndAChildWithoutItsParent() {
        var twice = assertThrows(IllegalStateException.class, () -> register(r -> r.consoleSection(section("a").build())
                .consoleSection(section("a").build())));
        assertTrue(twice.getMessage().contains("things: console section a is declared twice"), twice.getMessage());
        var orphan = assertThrows(IllegalStateException.class, () -> register(r -> r.consoleSection(
                section("child").childOf("parent").build())));
        assertTrue(orphan.getMessage().contains("child of parent"), orphan.getMessage());
        var noDetail = assertThrows(IllegalStateException.class, () -> register(r -> r.consoleSection(section("parent").build())
                .consoleSection(section("child").childOf("parent").build())));
        assertTrue(noDetail.getMessage().contains("detail"), noDetail.getMessage());

        var registry = register(r -> r.consoleSection(section("parent").detail((c, i) -> Optional.empty()).build())
                .consoleSection(section("child").childOf("parent").build()));
        assertEquals(2, registry.consoleSections().size());
        assertTrue(registry.consoleSection("things", "child").isPresent());
        assertEquals(2, registry.contributionsOf("things").orElseThrow().consoleSections().size());
    }
}
