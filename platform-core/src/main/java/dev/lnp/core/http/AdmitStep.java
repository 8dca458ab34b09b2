package dev.lnp.core.http;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.internal.http.Surface;
import dev.lnp.core.db.AdmissionCheck;
import dev.lnp.core.limits.RateLimiter;
import dev.lnp.logging.RequestLogContext;
import dev.lnp.core.pipeline.PipelineStep;
import io.helidon.http.HeaderNames;
import java.util.List;

/**
 * Authenticated routes: the key (401), the surface's per-minute limit (429), the plugin switched off for the
 * workspace (404), the route's scope (403). The rate-limit headers go on every answer from here on. For a route
 * with a quota, the admission statement also takes the call's unit (the quota step takes it over, see
 * {@link dev.lnp.core.pipeline.QuotaStep}); when the call is refused before the quota step, the unit is given
 * back here.
 *
 * <p>On a route that runs in a request transaction, or answers from tool calls only (without a quota), the key may
 * be admitted from this node's cache ({@link AdmissionCheck}): the transaction's first statement re-checks it (the
 * tool call's, on a tool-call route). A route with a quota is admitted so only while this node holds a unit of the
 * workspace's quota ({@link dev.lnp.core.limits.QuotaReserve}); the unit goes back to it when the call does not use
 * it. When the route's transaction finds the admission stale, it rolls back (a write's before its handler ran) and
 * {@link RecheckAdmissionStep} admits the call again from the database ({@link #admitAgain}). When a tool call's
 * transaction finds it stale (a route that answers from tool calls), the call is admitted again from the database
 * and the steps after this one run again (the body is not read twice): the tool's permission depends on the
 * admission. Its rate-limit position is then counted twice. A call that ends in an error before a transaction
 * checked its admission is checked by a statement of its own first, so a revoked key gets its 401 and not that
 * error.
 */
final class AdmitStep implements PipelineStep<RouteCall> {

    private final String pluginId;
    private final Surface surface;
    private final PipelineServices services;
    /** The route's quota, taken in the admission statement; null when the route has none (or it is raw). */
    private final String quota;
    /**
     * Whether the call may be admitted from the cache: a transaction (the route's, or its tool calls' on a route
     * without a quota) checks the admission, and the steps after this one can run again.
     */
    private final boolean checkedLater;

    AdmitStep(String pluginId, Surface surface, PipelineServices services, String quota, boolean checkedLater) {
        this.pluginId = pluginId;
        this.surface = surface;
        this.services = services;
        this.quota = quota;
        this.checkedLater = checkedLater;
    }

    @Override
    public String name() {
        return "admit";
    }

    @Override
    public void apply(RouteCall call, Rest rest) {
        try {
            admit(call, rest, checkedLater);
        } catch (AdmissionCheck.Stale stale) {
            // A tool call's transaction found its cached admission stale, or a refusal was confirmed against the
            // database: the call runs again on an admission from the database.
            services.metrics().admissionStale();
            admit(call, rest, false);
        }
    }

    private void admit(RouteCall call, Rest rest, boolean mayUseCache) {
        PipelineServices.Admitted admitted = services.admit(
                call.req.headers().all(HeaderNames.AUTHORIZATION, List::of), surface.id(), quota, mayUseCache);
        call.quotaUnit = admitted.quotaUnit();
        try {
            accept(call, admitted.caller());
            rest.proceed();
        } catch (ApiProblem refused) {
            if (refused.status() < 500) {
                services.confirm(admitted.caller().check());
            }
            throw refused;
        } finally {
            // Nothing when the quota step took the unit over (it gives back what the call did not use).
            services.quotaStep().release(call.quotaUnit);
        }
    }

    /**
     * Admits the call again from the database, its cached admission found stale by its transaction (see
     * {@link RecheckAdmissionStep}): the same refusals as the first admission, no second unit of quota.
     */
    void admitAgain(RouteCall call) {
        services.metrics().admissionStale();
        accept(call, services.admit(call.req.headers().all(HeaderNames.AUTHORIZATION, List::of), surface.id(), null,
                false).caller());
    }

    /** The route's own refusals of an admitted caller (module switched off, scope), then the caller is the call's. */
    private void accept(RouteCall call, PipelineServices.Caller caller) {
        var route = call.route;
        if (caller.key().disabledModules().contains(pluginId)) {
            throw Problems.routeNotFound(route.method().name(), call.req.path().path());
        }
        if (!caller.principal().has(route.scope())) {
            throw new ApiProblem(403, "missing_scope", "Forbidden",
                    "This key lacks the scope " + route.scope() + " that " + call.routeName() + " needs.",
                    List.of(), RateLimiter.headers(caller.rate()));
        }
        call.caller = caller;
        RequestLogContext.workspace(caller.principal().workspaceId());
        RateLimiter.headers(caller.rate()).forEach((k, v) -> call.res.header(HeaderNames.create(k), v));
    }
}
