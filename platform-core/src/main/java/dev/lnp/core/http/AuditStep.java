package dev.lnp.core.http;

import dev.lnp.api.internal.http.Surface;
import dev.lnp.core.pipeline.PipelineStep;

/** Outermost: whatever the outcome, the audit row (authenticated callers) and the request's latency sample. */
final class AuditStep implements PipelineStep<RouteCall> {

    private final PipelineServices services;
    private final Surface surface;

    AuditStep(PipelineServices services, Surface surface) {
        this.services = services;
        this.surface = surface;
    }

    @Override
    public String name() {
        return "audit";
    }

    @Override
    public void apply(RouteCall call, Rest rest) {
        try {
            rest.proceed();
        } finally {
            services.audit(call.caller, surface.id(), call.route.method().name(), call.route.path(),
                    call.requestId, call.status, System.nanoTime() - call.startedNanos);
        }
    }
}
