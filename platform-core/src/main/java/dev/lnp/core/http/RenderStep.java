package dev.lnp.core.http;

import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.ResponseShape;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.core.pipeline.PipelineStep;

/**
 * Turns the handler's answer into the bytes to send, inside the transaction so that an idempotent replay sends the
 * same bytes. It only writes: the handler's statements ran in {@code invoke} (a page's rows, which the driver
 * holds, are written from its result set now):
 * the route's success status unless the handler chose one, the {@code data}/{@code pagination} envelope or the bare
 * object ({@link ResponseShape#DIRECT}), written into a pooled buffer ({@link ResponseWriter}).
 */
final class RenderStep implements PipelineStep<RouteCall> {

    private final RouteSpec route;

    RenderStep(RouteSpec route) {
        this.route = route;
    }

    @Override
    public String name() {
        return "render";
    }

    @Override
    public void apply(RouteCall call, Rest rest) {
        call.rendered = render(call.response);
        rest.proceed();
    }

    private RouteCall.Rendered render(ApiResponse result) {
        int status = result.status() != 0 ? result.status() : route.successStatus();
        if (status == 204) {
            return new RouteCall.Rendered(status, null, false);
        }
        return new RouteCall.Rendered(status, ResponseWriter.render(result, route.shape()), false);
    }
}
