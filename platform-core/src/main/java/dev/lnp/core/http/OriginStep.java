package dev.lnp.core.http;

import dev.lnp.core.pipeline.PipelineStep;
import io.helidon.http.HeaderNames;
import java.util.List;

/** MCP surface only, before anything else: 403 for an {@code Origin} this deployment does not serve. */
final class OriginStep implements PipelineStep<RouteCall> {

    private final AllowedOrigins allowedOrigins;

    OriginStep(AllowedOrigins allowedOrigins) {
        this.allowedOrigins = allowedOrigins;
    }

    @Override
    public String name() {
        return "origin";
    }

    @Override
    public void apply(RouteCall call, Rest rest) {
        allowedOrigins.check(call.req.headers().all(HeaderNames.ORIGIN, List::of));
        rest.proceed();
    }
}
