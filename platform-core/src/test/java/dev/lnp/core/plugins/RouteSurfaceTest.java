package dev.lnp.core.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.PlatformPlugin;
import dev.lnp.api.Registrar;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.http.Surface;
import dev.lnp.api.internal.http.SurfaceRegistrar;
import java.lang.reflect.Proxy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A route's surface is how it was registered: the public {@link Registrar#route} puts it on REST, and only the
 * internal {@link SurfaceRegistrar} puts it elsewhere.
 */
class RouteSurfaceTest {

    private static RouteSpec route(String path) {
        return RouteSpec.get(path).scope("notes.read").handler(req -> ApiResponse.of(java.util.Map.of()));
    }

    @Test
    void aRouteRegisteredThroughThePublicRegistrarIsOnTheRestSurface() {
        var registry = new PluginRegistry();
        registry.register("notes", registrar -> registrar.route(route("/api/v1/notes")));

        assertEquals(List.of(Surface.REST), registry.routes().stream().map(PluginRegistry.RegisteredRoute::surface)
                .toList());
    }

    @Test
    void aFirstPartyPluginPutsItsRoutesOnTheMcpSurfaceThroughTheInternalRegistrar() {
        var registry = new PluginRegistry();
        PlatformPlugin plugin = registrar -> SurfaceRegistrar.of(registrar).route(Surface.MCP, route("/api/mcp/x"))
                .route(route("/api/v1/y"));
        registry.register("gateway", plugin);

        assertEquals(List.of(Surface.MCP, Surface.REST), registry.routes().stream()
                .map(PluginRegistry.RegisteredRoute::surface).toList());
    }

    @Test
    void aRouteTakenOnOneSurfaceCannotBeRegisteredAgainOnAnother() {
        var registry = new PluginRegistry();
        var error = assertThrows(IllegalStateException.class, () -> registry.register("twice", registrar -> {
            registrar.route(route("/api/mcp/x"));
            SurfaceRegistrar.of(registrar).route(Surface.MCP, route("/api/mcp/x"));
        }));
        assertTrue(error.getMessage().contains("already registered"), error.getMessage());
    }

    @Test
    void aRegistrarThatIsNotThePlatformsCannotDeclareAnotherSurface() {
        Registrar foreign = (Registrar) Proxy.newProxyInstance(Registrar.class.getClassLoader(),
                new Class<?>[] {Registrar.class}, (proxy, method, args) -> "pluginId".equals(method.getName())
                        ? "elsewhere" : null);

        var error = assertThrows(IllegalStateException.class, () -> SurfaceRegistrar.of(foreign));
        assertTrue(error.getMessage().contains("elsewhere"), error.getMessage());
    }
}
