package dev.lnp.core.http;

import dev.lnp.api.http.HttpMethod;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.http.Surface;
import dev.lnp.core.pipeline.Pipeline;
import dev.lnp.core.pipeline.PipelineStep;
import dev.lnp.server.ReadDeadlines;
import java.util.ArrayList;
import java.util.List;

/**
 * The steps a route's requests go through, outermost first, assembled once per route from what it declares: a
 * step that would do nothing for the route is not in its list. A step that wraps the rest does its part around
 * the steps after it: {@code respond} sends the answer once they all returned (the transaction committed),
 * {@code quota} gives its unit back when they fail, {@code recheck admission} runs the transaction again when its
 * opening found the cached admission stale. The {@code transaction} step's opening statement is sent with the
 * first statement {@code invoke} runs, not on its own ({@code db.TransactionOpening}). Read in order, the list is the request's way through the pipeline
 * (docs/architecture.md, "Request pipeline").
 */
final class RouteSteps {

    private RouteSteps() {
    }

    /** A JSON route: checked input, the handler in the route's transaction, its answer rendered and sent. */
    static Pipeline<RouteCall> json(String pluginId, RouteSpec route, Surface surface, PipelineServices services,
            ReadDeadlines deadlines) {
        boolean admitted = !route.isPublic();
        boolean post = route.method() == HttpMethod.POST;
        List<PipelineStep<? super RouteCall>> steps = new ArrayList<>();
        steps.add(new AuditStep(services, surface));
        steps.add(new ProblemStep(services.outage()));
        steps.add(new RespondStep());
        if (surface == Surface.MCP) {
            steps.add(new OriginStep(services.allowedOrigins()));
        }
        steps.add(new OutageStep(services.outage()));
        AdmitStep admit = null;
        if (admitted) {
            // A call whose admission a transaction re-checks (the route's own, or its tool calls') may be admitted
            // from the node's cache; with a quota, only in its own transaction and when the node holds a unit of
            // the workspace's quota (QuotaReserve). The route's quota unit is taken on admission.
            admit = new AdmitStep(pluginId, surface, services, route.quota(),
                    route.transactional() || route.quota() == null && route.answersFromToolCalls());
            steps.add(admit);
        }
        steps.add(new PathIdsStep(route));
        steps.add(new QueryStep(route));
        if (route.bodySchema() != null) {
            steps.add(new BodyStep(route, new BodyReader(services.maxBodyBytes(), deadlines)));
        }
        if (admitted && post) {
            steps.add(new IdempotencyKeyStep());
        }
        if (admitted && route.quota() != null) {
            steps.add(services.quotaStep());
        }
        if (admitted && route.transactional()) {
            steps.add(new RecheckAdmissionStep(admit));
            // The transaction's opening (workspace, tenant role, cached admission's check) rides with the handler's
            // first statement in invoke, one round trip, through the connection it wraps (db.TransactionOpening,
            // db.OpeningConnection, db.JoinedStatement); a GET also runs in autocommit and sends no commit.
            steps.add(services.transactionStep());
            if (post) {
                steps.add(new IdempotencyStep(services.idempotency()));
            }
        }
        steps.add(new InvokeStep());
        steps.add(new RenderStep(route));
        return new Pipeline<>(steps);
    }

    /**
     * A raw route ({@code RouteSpec...raw(handler)}, a protocol endpoint such as MCP's JSON-RPC): the same admission
     * as a JSON route, then the handler gets the unparsed body and writes the whole answer. No query or body schema,
     * quota, request transaction or idempotency: what the handler calls (the tool gateway) applies its own.
     */
    static Pipeline<RouteCall> raw(String pluginId, RouteSpec route, Surface surface, PipelineServices services,
            ReadDeadlines deadlines) {
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
        return new Pipeline<>(steps);
    }
}
