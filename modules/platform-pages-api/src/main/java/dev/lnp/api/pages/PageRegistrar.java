package dev.lnp.api.pages;

import dev.lnp.api.Registrar;

/**
 * Declares pages and search sources while a plugin registers. The platform's {@link Registrar} implements this
 * interface; a plugin with pages reaches it with {@link #of}, in {@code register}, as it declares its routes:
 * {@code PageRegistrar.of(registrar).page(…)}. Everything declared here is recorded against the plugin's id, like
 * the rest of its contributions.
 */
public interface PageRegistrar {

    /**
     * Adds a page to the workspace application ({@code /app/…}) or the administration ({@code /console/…}), shown to
     * people whose role grants the page's scope in workspaces where this plugin is switched on. A method and path
     * declared twice (by any plugin) fails start-up. See {@link PageRoute}.
     */
    PageRegistrar page(PageRoute page);

    /**
     * Adds a source of the application's search box: records of one kind found by a text, asked only where this
     * plugin is switched on and only for people whose role grants its scope. A kind offered twice fails start-up.
     * See {@link PageSearch}.
     */
    PageRegistrar search(PageSearch search);

    /** The page side of the registrar a plugin was given in {@code register}. */
    static PageRegistrar of(Registrar registrar) {
        if (registrar instanceof PageRegistrar pages) {
            return pages;
        }
        throw new IllegalStateException("the registrar of plugin " + registrar.pluginId() + " cannot declare pages");
    }
}
