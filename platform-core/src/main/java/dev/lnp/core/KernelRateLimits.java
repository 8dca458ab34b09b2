package dev.lnp.core;

import dev.lnp.api.internal.platform.RateLimits;
import dev.lnp.core.http.PipelineServices;
import java.util.Map;

/** The pipeline's limits as the console's Usage page reads them ({@link RateLimits}). */
record KernelRateLimits(PipelineServices.Limits limits) implements RateLimits {

    @Override
    public int restPerMinute() {
        return limits.restPerMinute();
    }

    @Override
    public int mcpPerMinute() {
        return limits.mcpPerMinute();
    }

    @Override
    public long quotaLimit(String quota, Map<String, Long> workspaceLimits) {
        return limits.quotas().limit(quota, workspaceLimits);
    }
}
