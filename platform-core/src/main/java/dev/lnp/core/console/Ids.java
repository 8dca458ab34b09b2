package dev.lnp.core.console;

import dev.lnp.core.http.PathIds;
import java.util.UUID;

/**
 * Ids from URLs and forms. For pages anything that is not a UUID is simply not found; the console's JSON routes
 * answer a malformed path id 400 {@code invalid_path_parameter} naming the parameter, as /api/v1 does.
 */
public final class Ids {

    private Ids() {
    }

    public static UUID parse(String value) {
        if (value == null || value.length() != 36) {
            return null;
        }
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The path parameter {@code name} of a console JSON route; 400 naming it when it is not a UUID. */
    public static UUID pathParameter(io.helidon.webserver.http.ServerRequest req, String name) {
        UUID id = parse(req.path().pathParameters().get(name));
        if (id == null) {
            throw PathIds.malformedProblem(name);
        }
        return id;
    }
}
