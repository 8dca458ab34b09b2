package dev.lnp.core.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;

/** Writes {@code application/problem+json} (RFC 9457) with our stable {@code code} and the request id. */
public final class Problems {

    public static final String TYPE_BASE = ApiProblem.TYPE_BASE;

    private Problems() {
    }

    public static void write(ServerResponse res, String requestId, ApiProblem problem) {
        ObjectNode body = Json.object();
        body.put("type", ApiProblem.typeOf(problem.code()));
        body.put("title", problem.title());
        body.put("status", problem.status());
        body.put("detail", problem.detail());
        body.put("code", problem.code());
        body.put("request_id", requestId);
        if (!problem.errors().isEmpty()) {
            ArrayNode errors = body.putArray("errors");
            for (FieldError e : problem.errors()) {
                errors.addObject().put("pointer", e.pointer()).put("rule", e.rule()).put("message", e.message());
            }
            if (problem.omittedErrors() > 0) {
                body.put("errors_omitted", problem.omittedErrors());
            }
        }
        problem.headers().forEach((name, value) -> res.header(HeaderNames.create(name), value));
        res.status(Status.create(problem.status()));
        res.header(HeaderNames.CONTENT_TYPE, "application/problem+json");
        res.send(Json.mapper().valueToTree(body).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    public static ApiProblem internal() {
        return new ApiProblem(500, "internal_error", "Internal Server Error",
                "The request failed on the server. Quote the request id when reporting it.");
    }

    /** 503 when the database cannot be reached (the client may retry), 500 for anything else. */
    public static ApiProblem forFailure(Throwable failure) {
        return isDatabaseUnreachable(failure) ? databaseUnavailable() : internal();
    }

    public static ApiProblem databaseUnavailable() {
        return new ApiProblem(503, "database_unavailable", "Service Unavailable",
                "The database is not reachable right now; retry later.", java.util.List.of(),
                java.util.Map.of("Retry-After", "5"));
    }

    /** See {@link dev.lnp.database.Database#isUnreachable}. */
    public static boolean isDatabaseUnreachable(Throwable failure) {
        return dev.lnp.database.Database.isUnreachable(failure);
    }

    /** 404 for a path outside the API that nothing serves; the path is cut short and shown printable. */
    public static ApiProblem nothingAt(String path) {
        String shown = path == null ? "" : path.replaceAll("[^\\x21-\\x7e]", "?");
        if (shown.length() > 200) {
            shown = shown.substring(0, 200) + "...";
        }
        return new ApiProblem(404, "not_found", "Not Found", "Nothing is served at " + shown + ".");
    }

    public static ApiProblem routeNotFound(String method, String path) {
        return new ApiProblem(404, "route_not_found", "Not Found", "No route " + method + " " + path + ".");
    }
}
