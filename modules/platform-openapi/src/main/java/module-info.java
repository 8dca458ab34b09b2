/**
 * The OpenAPI documents, a subsystem of the kernel: {@code /openapi/v1.json}, generated from the routes the core and
 * the plugins registered (read through the internal API's plugin catalog), and the generator first-party plugins use
 * for documents of their own routes ({@code OpenApiDocuments}). The kernel finds it through
 * {@link dev.lnp.api.internal.subsystem.Subsystem}; nothing in the kernel depends on this module.
 */
module lnp.platform.openapi {
    requires lnp.platform.api.internal;

    provides dev.lnp.api.internal.subsystem.Subsystem with dev.lnp.openapi.OpenApiSubsystem;
}
