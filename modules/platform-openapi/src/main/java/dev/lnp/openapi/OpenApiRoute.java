package dev.lnp.openapi;

import dev.lnp.api.http.RawResponse;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.platform.PluginCatalog;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /openapi/v1.json}: the OpenAPI 3.1 document of every {@code /api/v1} route of the plugins this
 * deployment loads, built from the registry's routes (paths, scopes, query parameters and the body schemas that
 * validate requests). It is public and the same for every caller: a workspace that switched a module off still sees that
 * module's routes here (they answer it 404), because the document describes the deployment, not a key.
 */
final class OpenApiRoute {

    static final String PATH = "/openapi/v1.json";
    private static final String PREFIX = "/api/v1/";

    private final PluginCatalog catalog;
    private final String serverUrl;
    private volatile byte[] document;

    /**
     * @param baseUrl {@code lnp.base.url} when the operator set it; otherwise the document names the server
     *                relatively ("/": where the document was fetched from), as the port may be chosen at start
     */
    OpenApiRoute(PluginCatalog catalog, Optional<String> baseUrl) {
        this.catalog = catalog;
        this.serverUrl = baseUrl.filter(s -> !s.isBlank()).map(s -> s.replaceAll("/+$", "")).orElse("/");
    }

    RouteSpec route() {
        return RouteSpec.get(PATH).publicRoute().summary("The OpenAPI 3.1 document of /api/v1")
                .raw(request -> RawResponse.json(200, new String(document(), StandardCharsets.UTF_8))
                        .withHeader("Cache-Control", "no-cache"));
    }

    /** Built on first use: every plugin has registered by the time a request arrives, and routes never change. */
    byte[] document() {
        byte[] built = document;
        if (built == null) {
            built = build().getBytes(StandardCharsets.UTF_8);
            document = built;
        }
        return built;
    }

    String build() {
        Map<String, List<RouteSpec>> byPlugin = new LinkedHashMap<>();
        for (PluginCatalog.Route route : catalog.routes()) {
            if (route.spec().path().startsWith(PREFIX)) {
                byPlugin.computeIfAbsent(route.pluginId(), id -> new ArrayList<>()).add(route.spec());
            }
        }
        OpenApiDocument doc = OpenApiDocument.builder("LNP workspace platform REST API", "v1")
                .description("Generated at run time from the routes of the modules this deployment loads and the "
                        + "JSON Schemas that validate their request bodies.")
                .server(serverUrl);
        byPlugin.forEach(doc::routes);
        return doc.build().toString();
    }
}
