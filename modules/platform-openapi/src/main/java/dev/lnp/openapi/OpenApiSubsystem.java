package dev.lnp.openapi;

import dev.lnp.api.Registrar;
import dev.lnp.api.internal.openapi.OpenApiDocuments;
import dev.lnp.api.internal.subsystem.Subsystem;
import java.util.Map;

/**
 * The OpenAPI documents as a subsystem of the kernel: it serves {@code /openapi/v1.json}, generated from the routes
 * the core and the plugins registered, and offers first-party plugins the same generator for documents of their own
 * routes ({@link OpenApiDocuments}).
 */
public final class OpenApiSubsystem implements Subsystem {

    /** After every other subsystem, so that its route is the last of the core's in the route listing. */
    @Override
    public int rank() {
        return 1000;
    }

    @Override
    public void register(Registrar registrar, Setup setup) {
        registrar.route(new OpenApiRoute(setup.plugins(), setup.config().get("lnp.base.url")).route());
    }

    @Override
    public Map<Class<?>, Object> offer(Services services) {
        return Map.of(OpenApiDocuments.class, new PlatformOpenApiDocuments());
    }
}
