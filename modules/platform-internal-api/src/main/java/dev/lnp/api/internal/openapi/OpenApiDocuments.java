package dev.lnp.api.internal.openapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.http.RouteSpec;
import java.util.List;

/**
 * OpenAPI 3.1 documents of a plugin's own routes, built by the generator that serves {@code /openapi/v1.json}:
 * paths, scopes, query parameters and the very JSON Schemas that validate request bodies are taken from the
 * {@link RouteSpec}s. Offered by the platform through {@code context.service(OpenApiDocuments.class)}.
 */
public interface OpenApiDocuments {

    /**
     * A new document (the caller may add to it) of {@code routes} under one tag.
     *
     * @param version the version of the API the document describes ({@code info.version})
     * @param server the base URL clients call
     */
    ObjectNode document(String title, String version, String description, String server, String tag,
            List<RouteSpec> routes);
}
