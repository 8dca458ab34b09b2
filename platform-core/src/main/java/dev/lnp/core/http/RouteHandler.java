package dev.lnp.core.http;

import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.http.Surface;
import dev.lnp.database.Database;
import dev.lnp.logging.RequestLogContext;
import dev.lnp.core.pipeline.Pipeline;
import dev.lnp.server.ReadDeadlines;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;

/**
 * A plugin's JSON route behind the request pipeline. Its steps, outermost first, are assembled once by
 * {@link RouteSteps#json}, with everything route-specific (schemas, validators) prepared there, not per request.
 * Raw routes have their own handler, {@link RawRouteHandler}.
 */
final class RouteHandler implements Handler {

    private final RouteSpec route;
    private final Pipeline<RouteCall> pipeline;

    RouteHandler(String pluginId, RouteSpec route, Surface surface, PipelineServices services, ReadDeadlines deadlines) {
        this.route = route;
        this.pipeline = RouteSteps.json(pluginId, route, surface, services, deadlines);
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        serve(route, pipeline, req, res);
    }

    /** The steps this route's requests go through, outermost first. */
    List<String> steps() {
        return pipeline.names();
    }

    /**
     * Runs one request through a route's pipeline with the request's id, its log fields (lines written while
     * serving it, here, in the plugin or in the core, carry them) and, during a database outage, connection waits
     * cut short (a 503 as soon as the database is found gone, not after 5 s).
     */
    static void serve(RouteSpec route, Pipeline<RouteCall> pipeline, ServerRequest req, ServerResponse res) {
        String requestId = RequestIds.of(req, res);
        try (RequestLogContext logContext = RequestLogContext.open(requestId, route.method() + " " + route.path());
                Database.WaitScope connectionWaits = Database.cutShortOnOutage()) {
            pipeline.run(new RouteCall(requestId, route, req, res));
        }
    }

    /** The TCP peer's address (forwarding headers are not trusted). */
    static java.util.Optional<String> clientAddress(ServerRequest req) {
        return req.remotePeer().address() instanceof java.net.InetSocketAddress address && address.getAddress() != null
                ? java.util.Optional.of(address.getAddress().getHostAddress()) : java.util.Optional.empty();
    }
}
