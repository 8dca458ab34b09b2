package dev.lnp.core.http;

import dev.lnp.database.DatabaseOutage;
import dev.lnp.core.pipeline.PipelineStep;

/** 503 at once while the database is known to be gone, instead of each request waiting for a connection. */
final class OutageStep implements PipelineStep<RouteCall> {

    private final DatabaseOutage outage;

    OutageStep(DatabaseOutage outage) {
        this.outage = outage;
    }

    @Override
    public String name() {
        return "outage";
    }

    @Override
    public void apply(RouteCall call, Rest rest) {
        if (outage.isDown()) {
            throw Problems.databaseUnavailable();
        }
        rest.proceed();
    }
}
