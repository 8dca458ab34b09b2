package dev.lnp.core.http;

import io.helidon.common.mapper.MapperManager;

/**
 * Works around Helidon 4.4.0 building a new mapper manager, through a service-registry lookup, each time a header
 * value is read as a number ({@code Headers.contentLength()}, routing): about a tenth of the server's CPU per
 * request in the benchmark (docs/performance.md). Installing one manager as the global one before the first request
 * makes every lookup return it. Helidon fixed the registry in 4.4.1 (helidon-io/helidon#11383); this can go once the
 * platform moves to such a release. {@code MapperManager} is deprecated, but it is what 4.4.0's header values call.
 */
@SuppressWarnings("removal")
public final class HelidonMappers {

    private static boolean installed;

    private HelidonMappers() {
    }

    /** Idempotent; call before the web server or a web client is built. */
    public static synchronized void installOnce() {
        if (!installed) {
            MapperManager.global(MapperManager.create());
            installed = true;
        }
    }
}
