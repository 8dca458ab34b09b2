package dev.lnp.api.internal.http;

import dev.lnp.api.Registrar;
import dev.lnp.api.http.RouteSpec;

/**
 * Declares routes on a surface other than REST. A route's surface decides its rate-limit budget, its audit label and
 * whether its {@code Origin} is checked, so it is not something a {@link RouteSpec} says about itself: the public
 * {@link Registrar#route} puts every route on {@link Surface#REST}, and only code that can see this internal module
 * (the first-party MCP plugin) registers one elsewhere. The platform's {@link Registrar} implements this interface.
 */
public interface SurfaceRegistrar {

    /** Declares {@code route} on {@code surface}; the same rules as {@link Registrar#route} apply. */
    Registrar route(Surface surface, RouteSpec route);

    /** The surface-aware side of the registrar a plugin was given in {@code register}. */
    static SurfaceRegistrar of(Registrar registrar) {
        if (registrar instanceof SurfaceRegistrar surfaces) {
            return surfaces;
        }
        throw new IllegalStateException("the registrar of plugin " + registrar.pluginId()
                + " cannot declare routes on another surface than REST");
    }
}
