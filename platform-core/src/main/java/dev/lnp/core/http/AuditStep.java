package dev.lnp.core.http;

import dev.lnp.core.pipeline.PipelineStep;

/** Outermost: whatever the outcome, the audit row (authenticated callers) and the request's latency sample. */
final class AuditStep implements PipelineStep<RouteCall> {

    private final PipelineServices services;

    AuditStep(PipelineServices services) {
        this.services = services;
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
            services.audit(call.caller, call.route.surface().id(), call.route.method().name(), call.route.path(),
                    call.requestId, call.status, System.nanoTime() - call.startedNanos);
        }
    }
}
