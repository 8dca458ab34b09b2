package dev.lnp.core.http;

import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.http.Surface;
import dev.lnp.core.db.Database;
import dev.lnp.core.logging.RequestLogContext;
import dev.lnp.core.pipeline.Pipeline;
import dev.lnp.core.pipeline.PipelineStep;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * A plugin's JSON route behind the request pipeline. The steps, outermost first, are listed in the constructor;
 * everything route-specific (schemas, validators) is prepared there, once, not per request. Raw routes have
 * their own handler, {@link RawRouteHandler}.
 */
final class RouteHandler implements Handler {

    private final RouteSpec route;
    private final Pipeline<RouteCall> pipeline;

    RouteHandler(String pluginId, RouteSpec route, Surface surface, PipelineServices services, ReadDeadlines deadlines) {
        this.route = route;
        List<PipelineStep<? super RouteCall>> steps = new ArrayList<>();
        steps.add(new AuditStep(services, surface));
        steps.add(new ProblemStep(services.outage()));
        steps.add(new RespondStep());
        if (surface == Surface.MCP) {
            steps.add(new OriginStep(services.allowedOrigins()));
        }
        steps.add(new OutageStep(services.outage()));
        if (!route.isPublic()) {
            // The quota step is added below exactly when the route has a quota: its unit is taken on admission.
            // A call whose admission a transaction re-checks (the route's own, or its tool calls') may be
            // admitted from the node's cache; with a quota, only in its own transaction and when the node holds a
            // unit of the workspace's quota (QuotaReserve).
            steps.add(new AdmitStep(pluginId, surface, services, route.quota(), route.transactional()
                    || route.quota() == null && route.answersFromToolCalls()));
        }
        steps.add(new PathIdsStep(route));
        steps.add(new QueryStep(route));
        if (route.bodySchema() != null) {
            steps.add(new BodyStep(route, new BodyReader(services.maxBodyBytes(), deadlines)));
        }
        if (!route.isPublic()) {
            steps.add(new IdempotencyKeyStep());
            if (route.quota() != null) {
                steps.add(services.quotaStep());
            }
            if (route.transactional()) {
                steps.add(services.transactionStep());
                steps.add(new IdempotencyStep(services.idempotency()));
            }
        }
        steps.add(new RenderStep(route));
        steps.add(new InvokeStep());
        this.pipeline = new Pipeline<>(steps);
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
