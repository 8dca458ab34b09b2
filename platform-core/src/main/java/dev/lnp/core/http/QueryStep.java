package dev.lnp.core.http;

import dev.lnp.api.http.RouteSpec;
import dev.lnp.core.pipeline.PipelineStep;

/** The query parameters against the route's declaration (400), and the page asked for. */
final class QueryStep implements PipelineStep<RouteCall> {

    private final QueryValidator validator;

    QueryStep(RouteSpec route) {
        this.validator = new QueryValidator(route);
    }

    @Override
    public String name() {
        return "query";
    }

    @Override
    public void apply(RouteCall call, Rest rest) {
        call.page = validator.validate(call.query);
        rest.proceed();
    }
}
