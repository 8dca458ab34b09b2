package dev.lnp.core.http;

import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.http.Surface;
import dev.lnp.core.pipeline.Pipeline;
import dev.lnp.core.pipeline.PipelineStep;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * A raw route ({@code RouteSpec...raw(handler)}, a protocol endpoint such as MCP's JSON-RPC): the same admission
 * as a JSON route, then the handler gets the unparsed body and writes the whole answer. No query or body schema,
 * quota, request transaction or idempotency: what the handler calls (the tool gateway) applies its own.
 */
final class RawRouteHandler implements Handler {

    private final RouteSpec route;
    private final Pipeline<RouteCall> pipeline;

    RawRouteHandler(String pluginId, RouteSpec route, Surface surface, PipelineServices services, ReadDeadlines deadlines) {
        this.route = route;
        List<PipelineStep<? super RouteCall>> steps = new ArrayList<>();
        steps.add(new AuditStep(services, surface));
        steps.add(new ProblemStep(services.outage()));
        if (surface == Surface.MCP) {
            steps.add(new OriginStep(services.allowedOrigins()));
        }
        steps.add(new OutageStep(services.outage()));
        if (!route.isPublic()) {
            // No quota on admission: a raw route has no quota step (its tool calls take their own).
            steps.add(new AdmitStep(pluginId, surface, services, null, false));
        }
        steps.add(new PathIdsStep(route));
        steps.add(new RawInvokeStep(new BodyReader(services.maxBodyBytes(), deadlines)));
        this.pipeline = new Pipeline<>(steps);
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
