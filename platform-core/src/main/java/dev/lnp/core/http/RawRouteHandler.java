package dev.lnp.core.http;

import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.http.Surface;
import dev.lnp.core.pipeline.Pipeline;
import dev.lnp.server.ReadDeadlines;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;

/**
 * A raw route ({@code RouteSpec...raw(handler)}, a protocol endpoint such as MCP's JSON-RPC) behind its steps,
 * assembled by {@link RouteSteps#raw}.
 */
final class RawRouteHandler implements Handler {

    private final RouteSpec route;
    private final Pipeline<RouteCall> pipeline;

    RawRouteHandler(String pluginId, RouteSpec route, Surface surface, PipelineServices services,
            ReadDeadlines deadlines) {
        this.route = route;
        this.pipeline = RouteSteps.raw(pluginId, route, surface, services, deadlines);
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        RouteHandler.serve(route, pipeline, req, res);
    }

    /** The steps this route's requests go through, outermost first. */
    List<String> steps() {
        return pipeline.names();
    }
}
