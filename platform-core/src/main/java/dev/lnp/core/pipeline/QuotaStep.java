package dev.lnp.core.pipeline;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.core.limits.QuotaCharge;
import dev.lnp.core.limits.QuotaCounter;
import dev.lnp.core.limits.QuotaLimits;
import dev.lnp.core.metrics.PlatformMetrics;
import java.util.Map;
import java.util.UUID;

/**
 * Takes one unit of the call's monthly quota before the rest runs (429 when none is left), and gives it back when
 * the call does not use it: it failed, or it replayed a stored answer. Units are taken and given back for routes
 * and tool calls alike here, with one exception: a route's unit is taken earlier by its admission statement (one
 * round trip less per write, see {@link #charge}) or from the units this node holds for the workspace
 * ({@link dev.lnp.core.limits.QuotaReserve}), and this step takes that unit over ({@link AdmittedUnit}); a
 * unit the admission took for a call refused before this step is given back by {@link #release}. When the
 * admission found no unit left, this step asks again with a statement of its own, so the 429 comes at this
 * step's position, after the call's own errors (scope, query, body, idempotency key), as before. The unit is
 * never taken inside the call's transaction: there it would run as the request role and hold the quota row's
 * lock for the whole call.
 */
public final class QuotaStep implements PipelineStep<QuotaStep.Charged> {

    /** What the quota step needs to know about a call. */
    public interface Charged {

        UUID workspaceId();

        /** The workspace's own monthly limits, by quota name (usually none): they win over the deployment's. */
        Map<String, Long> workspaceQuotas();

        /** The quota the call counts against, or null when it counts against none. */
        String quota();

        /** Asked once the rest has returned normally: whether the call used its unit (a replay did not). */
        boolean usedQuota();

        /** The unit the call's admission statement took, or null (none taken, or no admission: tool calls). */
        default AdmittedUnit admittedUnit() {
            return null;
        }
    }

    /**
     * A unit of quota the admission statement took for a call, owned by whichever comes first: the quota step
     * (the call reached it) or {@link #release} (the call was refused before it). One request's steps run on one
     * thread, one after the other, so no synchronisation.
     */
    public static final class AdmittedUnit {

        private final UUID workspaceId;
        private final String quota;
        private boolean claimed;

        public AdmittedUnit(UUID workspaceId, String quota) {
            this.workspaceId = workspaceId;
            this.quota = quota;
        }

        /** True the first time only: the caller now owns the unit. */
        private boolean claim() {
            if (claimed) {
                return false;
            }
            claimed = true;
            return true;
        }
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

    /** What a route's admission statement needs to take a unit of {@code quota} (null: none). */
    public QuotaCharge charge(String quota) {
        return quota == null ? null : counter.charge(quota, limits.deploymentLimit(quota));
    }

    /** Gives back an admitted unit this step never took over (the call was refused before it); null: nothing. */
    public void release(AdmittedUnit unit) {
        if (unit != null && unit.claim()) {
            counter.giveBack(unit.workspaceId, unit.quota);
        }
    }

    @Override
    public void apply(Charged call, Rest rest) {
        String quota = call.quota();
        if (quota == null) {
            rest.proceed();
            return;
        }
        var workspaceId = call.workspaceId();
        AdmittedUnit admitted = call.admittedUnit();
        if (admitted == null || !admitted.claim()) {
            try {
                counter.take(workspaceId, quota, limits.limit(quota, call.workspaceQuotas()));
            } catch (ApiProblem refused) {
                metrics.refused("quota", quota);
                throw refused;
            }
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
