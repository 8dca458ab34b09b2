package dev.lnp.core.http;

import dev.lnp.core.pipeline.PipelineStep;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;

/** Once the steps after it have rendered the answer, writes it: status, replay marker, JSON body or none. */
final class RespondStep implements PipelineStep<RouteCall> {

    @Override
    public String name() {
        return "respond";
    }

    @Override
    public void apply(RouteCall call, Rest rest) {
        rest.proceed();
        RouteCall.Rendered rendered = call.rendered;
        call.status = rendered.status();
        call.res.status(Status.create(rendered.status()));
        if (rendered.replayed()) {
            call.res.header(HeaderNames.create("Idempotent-Replayed"), "true");
        }
        if (rendered.body() == null) {
            call.res.send();
        } else {
            ResponseWriter.send(call.res, rendered.body());
        }
    }
}
