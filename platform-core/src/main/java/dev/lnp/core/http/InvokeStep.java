package dev.lnp.core.http;

import dev.lnp.api.http.ApiResponse;
import dev.lnp.core.pipeline.PipelineStep;
import java.util.Optional;

/**
 * The plugin's handler, with the checked request; a checked exception of it becomes a 500. Every statement of the
 * handler runs here, a page's too ({@code JsonRows#response} runs its query), so its errors come from this step;
 * {@code render} then only writes the answer.
 */
final class InvokeStep implements PipelineStep<RouteCall> {

    @Override
    public String name() {
        return "invoke";
    }

    @Override
    public void apply(RouteCall call, Rest rest) {
        var request = new ApiRequestImpl(call.requestId, Optional.ofNullable(call.caller)
                .map(PipelineServices.Caller::principal), call.pathParams, call.query, call.page, call.body, call.tx,
                call.caller, call.route.path(), call.req);
        ApiResponse response;
        try {
            response = call.route.handler().handle(request);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        if (response == null) {
            throw new IllegalStateException("handler of " + call.routeName() + " returned null");
        }
        call.response = response;
        rest.proceed();
    }
}
