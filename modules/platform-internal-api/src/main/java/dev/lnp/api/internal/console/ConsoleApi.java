package dev.lnp.api.internal.console;

import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.UUID;

/**
 * What the console's JSON routes ({@code /console/api}) offer one another module adds: the session cookie, CSRF,
 * the v1 envelope and problem+json.
 */
public interface ConsoleApi {

    /** One call of a JSON route. */
    record Call(ServerRequest req, ServerResponse res, PageExchange exchange) {
    }

    interface JsonHandler {
        /** The answer's data (wrapped in the v1 envelope), or null for 204. */
        Object handle(Call call);
    }

    /** The console's handler for {@code handler}: envelope, no-store, refusals and failures as problem+json. */
    Handler json(JsonHandler handler);

    /** The signed-in session with a workspace; 401 without one, 409 before a workspace is chosen. */
    ConsoleSession session(PageExchange exchange);

    /** A state change: the session's CSRF token in X-CSRF-Token, and the console's origin if a browser sent one. */
    ConsoleSession changing(Call call);

    /** The path parameter {@code name} as a UUID; 400 {@code invalid_path_parameter} naming it otherwise. */
    UUID pathId(Call call, String name);

    /** The body as a JSON object (application/json, at most 64 KiB); its fields are the caller's to check. */
    com.fasterxml.jackson.databind.JsonNode jsonObject(Call call);

    /** The workspace's activity log, where every change is recorded as the pages record it. */
    ActivityLog activity();

    /** A whole list as one page of the v1 envelope ({@code data} and {@code pagination}). */
    com.fasterxml.jackson.databind.node.ObjectNode envelope(com.fasterxml.jackson.databind.node.ArrayNode data);
}
