package dev.lnp.core.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.pages.PageSearch;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Plugins offer the application's search sources; one kind of hit has one source. */
class PageSearchRegistrationTest {

    private static PageSearch source(String kind) {
        return new PageSearch(kind, "notes.read", (call, text, limit) -> List.of());
    }

    @Test
    void sourcesAreListedInRegistrationOrderWithTheirPlugin() {
        var registry = new PluginRegistry();
        registry.register("notes", r -> r.search(source("Notes")).search(source("Drafts")));
        registry.register("memo", r -> r.search(source("Memos")));
        assertEquals(List.of("notes:Notes", "notes:Drafts", "memo:Memos"), registry.searches().stream()
                .map(s -> s.pluginId() + ":" + s.search().kind()).toList());
    }

    @Test
    void aKindOfferedTwiceFailsNamingThePluginThatHasIt() {
        var registry = new PluginRegistry();
        registry.register("notes", r -> r.search(source("Notes")));
        var twice = assertThrows(IllegalStateException.class, () -> registry.register("memo", r -> r.search(source("Notes"))));
        assertTrue(twice.getMessage().contains("memo") && twice.getMessage().contains("Notes")
                && twice.getMessage().contains("notes"), twice.getMessage());
    }
}
