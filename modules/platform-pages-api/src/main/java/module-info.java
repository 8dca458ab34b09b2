/**
 * The page API: what a plugin declares to contribute server-rendered pages to the application people work in
 * ({@code /app/…}) or to the administration ({@code /console/…}), and sources of the application's search box.
 * Kept apart from {@code lnp.platform.api} so that a plugin without pages, and the kernel's plugin contract, do not
 * carry it; a plugin with pages requires this module and declares them through {@link dev.lnp.api.pages.PageRegistrar}.
 * The web subsystem implements it (rendering, validation, SVG).
 */
module lnp.platform.pages {
    requires transitive lnp.platform.api;

    exports dev.lnp.api.pages;
}
