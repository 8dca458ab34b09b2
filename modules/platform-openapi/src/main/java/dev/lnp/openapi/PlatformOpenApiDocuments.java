package dev.lnp.openapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.openapi.OpenApiDocuments;
import java.util.List;

/** The {@link OpenApiDocuments} service: the generator of {@code /openapi/v1.json} for a plugin's own routes. */
final class PlatformOpenApiDocuments implements OpenApiDocuments {

    @Override
    public ObjectNode document(String title, String version, String description, String server, String tag,
            List<RouteSpec> routes) {
        return OpenApiDocument.builder(title, version).description(description).server(server).routes(tag, routes)
                .build();
    }
}
