package dev.lnp.core.pipeline;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.core.http.PipelineServices;
import dev.lnp.core.limits.QuotaCounter;
import dev.lnp.core.limits.QuotaLimits;
import dev.lnp.core.metrics.PlatformMetrics;

/**
 * Takes one unit of the call's monthly quota before the rest runs (429 when none is left), and gives it back when
 * the call does not use it: it failed, or it replayed a stored answer. The only place quota units are taken and
 * given back, for routes and tool calls alike. The unit is a short statement of its own before the call's
 * transaction: inside it, it would run as the request role and hold the quota row's lock for the whole call.
 */
public final class QuotaStep implements PipelineStep<QuotaStep.Charged> {

    /** What the quota step needs to know about a call. */
    public interface Charged {

        PipelineServices.Caller caller();

        /** The quota the call counts against, or null when it counts against none. */
        String quota();

        /** Asked once the rest has returned normally: whether the call used its unit (a replay did not). */
        boolean usedQuota();
    }

    private final QuotaCounter counter;
    private final QuotaLimits limits;
    private final PlatformMetrics metrics;

    public QuotaStep(QuotaCounter counter, QuotaLimits limits, PlatformMetrics metrics) {
        this.counter = counter;
        this.limits = limits;
        this.metrics = metrics;
    }

    @Override
    public String name() {
        return "quota";
    }

    @Override
    public void apply(Charged call, Rest rest) {
        String quota = call.quota();
        if (quota == null) {
            rest.proceed();
            return;
        }
        var workspaceId = call.caller().principal().workspaceId();
        try {
            counter.take(workspaceId, quota, limits.limit(quota, call.caller().key().workspaceQuotas()));
        } catch (ApiProblem refused) {
            metrics.refused("quota", quota);
            throw refused;
        }
        boolean used = false;
        try {
            rest.proceed();
            used = call.usedQuota();
        } finally {
            if (!used) {
                counter.giveBack(workspaceId, quota);
            }
        }
    }
}
