package dev.lnp.core.http;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.ResponseShape;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.core.pipeline.PipelineStep;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * Turns the handler's answer into the bytes to send: the route's success status unless the handler chose one,
 * the {@code data}/{@code pagination} envelope or the bare object ({@link ResponseShape#DIRECT}).
 */
final class RenderStep implements PipelineStep<RouteCall> {

    private static final int MAX_SIZE_HINT = 1 << 20;

    private final RouteSpec route;
    /** Racy on purpose: any recent size is a good enough first guess. */
    private volatile int responseSizeHint = 8192;

    RenderStep(RouteSpec route) {
        this.route = route;
    }

    @Override
    public String name() {
        return "render";
    }

    @Override
    public void apply(RouteCall call, Rest rest) {
        rest.proceed();
        call.rendered = render(call.response);
    }

    private RouteCall.Rendered render(ApiResponse result) {
        int status = result.status() != 0 ? result.status() : route.successStatus();
        if (status == 204) {
            return new RouteCall.Rendered(status, null, false);
        }
        // Written straight from the handler's objects: turning them into a tree first (valueToTree) copied every
        // row of a page once more before serialising it.
        // Sized by the largest answer of this route so far (up to 1 MB): a 40 KB page otherwise grew the buffer
        // 8 → 16 → 32 → 64 KB, copying it each time (a fifth of a contacts page's allocation, JFR).
        var bytes = new ByteArrayOutputStream(responseSizeHint);
        try (JsonGenerator json = Json.mapper().createGenerator(bytes)) {
            if (route.shape() == ResponseShape.DIRECT) {
                Json.mapper().writeValue(json, result.data());
            } else {
                json.writeStartObject();
                json.writeFieldName("data");
                Json.mapper().writeValue(json, result.data());
                if (result.pagination() != null) {
                    json.writeFieldName("pagination");
                    Json.mapper().writeValue(json, result.pagination());
                }
                json.writeEndObject();
            }
        } catch (IOException e) {
            throw new IllegalStateException("Response of " + route.path() + " is not serializable", e);
        }
        if (bytes.size() > responseSizeHint && bytes.size() <= MAX_SIZE_HINT) {
            responseSizeHint = bytes.size() + 256;
        }
        return new RouteCall.Rendered(status, bytes.toByteArray(), false);
    }
}
