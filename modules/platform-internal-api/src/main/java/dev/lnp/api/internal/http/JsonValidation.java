package dev.lnp.api.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import java.util.List;

/**
 * Checks a JSON value against a JSON Schema with exactly the rules the platform applies to route bodies and tool
 * arguments (draft 2020-12, formats asserted, NUL characters and non-finite numbers refused), for the bodies a plugin
 * reads itself: a raw or public route (e.g. the chat endpoints) that must still validate with its schema file, so
 * that the file is the one source of truth. Offered through {@link PluginContext#service}.
 */
public interface JsonValidation {

    /** Every rule {@code value} breaks, one error per field by JSON pointer, sorted; empty when it is valid. */
    List<FieldError> validate(JsonNode schema, JsonNode value);

    /** Throws the 422 {@code validation_failed} problem a route body breaking {@code schema} would get. */
    default void require(JsonNode schema, JsonNode value) {
        List<FieldError> errors = validate(schema, value);
        if (!errors.isEmpty()) {
            throw ApiProblem.invalid(errors.size() == 1 ? errors.get(0).message()
                    : errors.size() + " fields are invalid", errors);
        }
    }
}
