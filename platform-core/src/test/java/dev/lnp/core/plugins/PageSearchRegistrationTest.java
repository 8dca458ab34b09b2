package dev.lnp.core.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.Registrar;
import dev.lnp.api.pages.PageRegistrar;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.pages.PageSearch;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Plugins declare pages and offer the application's search sources through the page side of their registrar; one
 * page has one method and path, one kind of hit has one source.
 */
class PageSearchRegistrationTest {

    private static PageSearch source(String kind) {
        return new PageSearch(kind, "notes.read", (call, text, limit) -> List.of());
    }

    @Test
    void sourcesAreListedInRegistrationOrderWithTheirPlugin() {
        var registry = new PluginRegistry();
        registry.register("notes", r -> PageRegistrar.of(r).search(source("Notes")).search(source("Drafts")));
        registry.register("memo", r -> PageRegistrar.of(r).search(source("Memos")));
        assertEquals(List.of("notes:Notes", "notes:Drafts", "memo:Memos"), registry.searches().stream()
                .map(s -> s.pluginId() + ":" + s.search().kind()).toList());
    }

    @Test
    void aKindOfferedTwiceFailsNamingThePluginThatHasIt() {
        var registry = new PluginRegistry();
        registry.register("notes", r -> PageRegistrar.of(r).search(source("Notes")));
        var twice = assertThrows(IllegalStateException.class,
                () -> registry.register("memo", r -> PageRegistrar.of(r).search(source("Notes"))));
        assertTrue(twice.getMessage().contains("memo") && twice.getMessage().contains("Notes")
                && twice.getMessage().contains("notes"), twice.getMessage());
    }

    @Test
    void pagesAreRecordedAgainstTheirPluginAndAPathDeclaredTwiceFails() {
        var registry = new PluginRegistry();
        PageRoute items = PageRoute.view("/app/notes/items").scope("notes.read").renderer(call -> null);
        registry.register("notes", r -> PageRegistrar.of(r).page(items));
        assertEquals(List.of("notes GET /app/notes/items"), registry.pages().stream()
                .map(p -> p.pluginId() + " " + p.page().method() + " " + p.page().path()).toList());

        var twice = assertThrows(IllegalStateException.class, () -> registry.register("memo",
                r -> PageRegistrar.of(r).page(PageRoute.view("/app/notes/items").scope("notes.read")
                        .renderer(call -> null))));
        assertTrue(twice.getMessage().contains("memo") && twice.getMessage().contains("/app/notes/items"),
                twice.getMessage());
    }

    @Test
    void onlyThePlatformsRegistrarDeclaresPages() {
        Registrar foreign = (Registrar) java.lang.reflect.Proxy.newProxyInstance(Registrar.class.getClassLoader(),
                new Class<?>[] {Registrar.class}, (proxy, method, args) -> "notes");
        var error = assertThrows(IllegalStateException.class, () -> PageRegistrar.of(foreign));
        assertTrue(error.getMessage().contains("plugin notes") && error.getMessage().contains("pages"),
                error.getMessage());
    }
}
