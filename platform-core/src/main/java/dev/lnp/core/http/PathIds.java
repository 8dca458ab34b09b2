package dev.lnp.core.http;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.RouteSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The UUID path parameters of a route: {@code {id}} and every {@code {…_id}}. Checked by the pipeline before the
 * body is read and before any handler runs, so every plugin answers a malformed id the same way (400 naming the
 * parameter), while a well-formed id that is not in the workspace stays the handler's 404.
 */
public final class PathIds {

    private final List<String> names;

    /** The route declares which of its parameters are ids ({@link RouteSpec#uuidPathParameters()}). */
    PathIds(RouteSpec route) {
        this.names = route.uuidPathParameters();
    }

    /** Throws 400 {@code invalid_path_parameter} naming every malformed id in {@code values}. */
    void validate(Map<String, String> values) {
        List<FieldError> errors = new ArrayList<>();
        for (String name : names) {
            String value = values.get(name);
            if (value != null && !QueryValidator.isUuid(value)) {
                errors.add(malformed(name));
            }
        }
        if (!errors.isEmpty()) {
            throw problem(errors);
        }
    }

    /** 400 {@code invalid_path_parameter} for one malformed id: the console's JSON routes answer it the same way. */
    public static ApiProblem malformedProblem(String name) {
        return problem(List.of(malformed(name)));
    }

    static FieldError malformed(String name) {
        return new FieldError("{" + name + "}", "format", name + " must be a UUID such as "
                + "0d6f3b8e-1c2a-4f5b-9e7d-3a1b2c4d5e6f");
    }

    static ApiProblem problem(List<FieldError> errors) {
        String names = String.join(", ", errors.stream().map(e -> e.pointer().substring(1, e.pointer().length() - 1))
                .toList());
        return new ApiProblem(400, "invalid_path_parameter", "Bad Request",
                "Malformed path parameter(s): " + names + ".", errors, Map.of());
    }
}
