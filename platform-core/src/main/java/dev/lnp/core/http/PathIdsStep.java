package dev.lnp.core.http;

import dev.lnp.api.http.RouteSpec;
import dev.lnp.core.pipeline.PipelineStep;

/** 400 for a path parameter named {@code id} or {@code *_id} that is not a UUID, before any handler sees it. */
final class PathIdsStep implements PipelineStep<RouteCall> {

    private final PathIds pathIds;

    PathIdsStep(RouteSpec route) {
        this.pathIds = new PathIds(route);
    }

    @Override
    public String name() {
        return "path ids";
    }

    @Override
    public void apply(RouteCall call, Rest rest) {
        pathIds.validate(call.pathParams);
        rest.proceed();
    }
}
