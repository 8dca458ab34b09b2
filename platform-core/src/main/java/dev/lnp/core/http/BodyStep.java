package dev.lnp.core.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.api.internal.http.RequestJson;
import dev.lnp.core.pipeline.PipelineStep;
import dev.lnp.json.validation.BodyValidator;
import io.helidon.http.HeaderNames;
import java.util.List;
import java.util.Map;

/**
 * Routes with a body schema: the size cap (413), the content type (415), the JSON (400) and the schema, compiled
 * once when the route is built (422 naming each field).
 */
final class BodyStep implements PipelineStep<RouteCall> {

    private static final int SUMMARY_FIELDS = 10;

    private final BodyValidator validator;
    private final BodyReader reader;

    BodyStep(RouteSpec route, BodyReader reader) {
        this.validator = BodyValidator.compile("route:" + route.method() + " " + route.path(), route.bodySchema());
        this.reader = reader;
    }

    @Override
    public String name() {
        return "body";
    }

    @Override
    public void apply(RouteCall call, Rest rest) {
        if (!call.body.isMissingNode()) {
            // The steps after admission run again after a stale cached admission: the body was read and checked.
            rest.proceed();
            return;
        }
        String contentType = call.req.headers().first(HeaderNames.CONTENT_TYPE).orElse("");
        if (!RequestJson.isJsonMediaType(contentType)) {
            throw new ApiProblem(415, "unsupported_media_type", "Unsupported Media Type",
                    "The body must be JSON in UTF-8, sent with Content-Type: application/json.");
        }
        byte[] bytes = read(call);
        JsonNode body;
        try {
            body = RequestJson.readRequest(bytes);
        } catch (RequestJson.InvalidJson e) {
            throw new ApiProblem(400, "invalid_json", "Bad Request", e.getMessage(),
                    List.of(new FieldError("", "json", "invalid JSON")), Map.of());
        }
        if (body == null || body.isMissingNode()) {
            throw new ApiProblem(400, "missing_body", "Bad Request", "This route needs a JSON body.");
        }
        List<FieldError> errors = validator.validate(body);
        if (!errors.isEmpty()) {
            throw ApiProblem.invalid(errors.size() == 1 ? errors.get(0).message() : summary(errors), errors);
        }
        call.body = body;
        rest.proceed();
    }

    /**
     * The body's bytes, read from the request once. A refused body (too large, cut off) is refused again without a
     * second read, which would find the rest of the stream; a body refused later (JSON, schema) is checked again
     * from the same bytes.
     */
    private byte[] read(RouteCall call) {
        if (call.bodyUnreadable != null) {
            throw call.bodyUnreadable;
        }
        if (call.bodyBytes == null) {
            try {
                call.bodyBytes = reader.read(call);
            } catch (ApiProblem unreadable) {
                call.bodyUnreadable = unreadable;
                throw unreadable;
            }
        }
        return call.bodyBytes;
    }

    /** "N fields are invalid: a, b, …": the first few fields by name, however many there are. */
    private static String summary(List<FieldError> errors) {
        List<String> fields = errors.stream().map(e -> e.pointer().isEmpty() ? "body" : e.pointer()).distinct()
                .limit(SUMMARY_FIELDS + 1).toList();
        return errors.size() + " fields are invalid: " + String.join(", ", fields.subList(0,
                Math.min(SUMMARY_FIELDS, fields.size()))) + (fields.size() > SUMMARY_FIELDS ? " and more" : "");
    }
}
