package dev.lnp.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One HTTP route as a plugin declares it: the path, the scope it needs, the schema of its body and the
 * handler, visible together. The platform wraps it in authentication, scope check, limits, validation,
 * transaction and error handling.
 *
 * @param path a path under the platform origin, with {@code {name}} parameters, e.g. {@code /api/v1/crm/deals/{id}}
 * @param scope the scope the caller's key needs; {@code null} only for public routes
 * @param bodySchema JSON Schema (draft 2020-12) the body must satisfy; {@code null} when the route takes no body
 * @param paginated whether {@code page} and {@code limit} are accepted (and checked) on this route
 * @param quota a monthly quota counter a successful call consumes, or {@code null}; the plugin declares it with
 *              {@link dev.lnp.api.Registrar#quota}
 * @param transactional whether the handler runs inside the request's workspace transaction (the default); a
 *                      route that calls platform services which open their own (e.g. tool calls) opts out
 * @param answersFromToolCalls whether the handler answers from tool calls through the platform's gateway only
 *                             ({@link Builder#answersFromToolCalls}); implies not {@code transactional}
 * @param responseSchema JSON Schema (draft 2020-12) of what a success answers: the object in {@code data} (each item
 *                       of {@code data} on a paginated route, the body itself for {@link ResponseShape#DIRECT});
 *                       {@code null} when undeclared. The OpenAPI document publishes it; tests check answers by it
 * @param answers statuses the handler itself may answer besides those the platform's pipeline gives the route (e.g.
 *                {@code 409} on a read, {@code 412}), listed in the OpenAPI document
 * @param handler the handler of an ordinary JSON route (validated body, transaction, envelope); {@code null} for a
 *                raw route
 * @param rawHandler the handler of a raw route, which speaks its own protocol over HTTP; {@code null} otherwise
 */
public record RouteSpec(
        HttpMethod method,
        String path,
        String scope,
        JsonNode bodySchema,
        List<QueryParam> query,
        boolean paginated,
        ResponseShape shape,
        int successStatus,
        String quota,
        String summary,
        boolean transactional,
        boolean answersFromToolCalls,
        JsonNode responseSchema,
        Set<Integer> answers,
        Handler handler,
        RawHandler rawHandler) {

    private static final Pattern PATH_PARAMETER = Pattern.compile("\\{([^}/]+)}");

    public RouteSpec {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        if ((handler == null) == (rawHandler == null)) {
            throw new IllegalArgumentException(method + " " + path + " needs exactly one handler or raw handler");
        }
        query = List.copyOf(query);
        answers = Set.copyOf(answers);
    }

    /** The names of the path's {@code {parameters}}, in the order they appear. */
    public List<String> pathParameters() {
        List<String> names = new ArrayList<>();
        Matcher m = PATH_PARAMETER.matcher(path);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /**
     * The path parameters that name an entity by id, and so must be UUIDs: {@code {id}} and every {@code {…_id}}.
     * The pipeline answers any other value 400 {@code invalid_path_parameter} before the handler runs; the OpenAPI
     * document declares them {@code format: uuid}.
     */
    public List<String> uuidPathParameters() {
        return pathParameters().stream().filter(RouteSpec::isIdName).toList();
    }

    /** Whether a path parameter of this name is an entity id (a UUID). */
    public static boolean isIdName(String name) {
        return name.equals("id") || name.endsWith("_id");
    }

    /** Whether the route handles the HTTP body and response itself ({@link Builder#raw}). */
    public boolean isRaw() {
        return rawHandler != null;
    }

    public static Builder get(String path) {
        return new Builder(HttpMethod.GET, path);
    }

    public static Builder post(String path) {
        return new Builder(HttpMethod.POST, path).status(201);
    }

    public static Builder patch(String path) {
        return new Builder(HttpMethod.PATCH, path);
    }

    public static Builder put(String path) {
        return new Builder(HttpMethod.PUT, path);
    }

    public static Builder delete(String path) {
        return new Builder(HttpMethod.DELETE, path);
    }

    /** An {@code OPTIONS} route, e.g. a CORS preflight answered by a public raw handler. */
    public static Builder options(String path) {
        return new Builder(HttpMethod.OPTIONS, path);
    }

    public boolean isPublic() {
        return scope == null;
    }

    public static final class Builder {
        private final HttpMethod method;
        private final String path;
        private String scope;
        private boolean isPublic;
        private JsonNode bodySchema;
        private final List<QueryParam> query = new ArrayList<>();
        private boolean paginated;
        private ResponseShape shape = ResponseShape.ENVELOPE;
        private int successStatus = 200;
        private String quota;
        private String summary = "";
        private boolean transactional = true;
        private boolean answersFromToolCalls;
        private JsonNode responseSchema;
        private final Set<Integer> answers = new TreeSet<>();

        private Builder(HttpMethod method, String path) {
            this.method = method;
            this.path = path;
        }

        public Builder scope(String scope) {
            this.scope = Objects.requireNonNull(scope);
            return this;
        }

        /** No key needed (e.g. a public widget endpoint). Must be stated explicitly. */
        public Builder publicRoute() {
            this.isPublic = true;
            return this;
        }

        public Builder body(JsonNode schema) {
            this.bodySchema = schema;
            return this;
        }

        /**
         * The JSON Schema of a success's result: the object in {@code data}, each item of {@code data} on a
         * {@link #paginated()} route, or the body itself for {@link ResponseShape#DIRECT}. Use the schema file the
         * route's MCP tool declares as its output, so the two cannot differ.
         */
        public Builder returns(JsonNode schema) {
            this.responseSchema = Objects.requireNonNull(schema, "schema");
            return this;
        }

        /**
         * Statuses the handler itself answers (as problem+json) besides those the platform gives every route of
         * this kind, e.g. {@code 409} on a read or {@code 412} for a failed {@code If-Match}; documented only.
         */
        public Builder answers(int... statuses) {
            for (int status : statuses) {
                if (status < 400 || status > 599) {
                    throw new IllegalArgumentException(method + " " + path + ": " + status + " is not an error status");
                }
                answers.add(status);
            }
            return this;
        }

        public Builder query(QueryParam... params) {
            this.query.addAll(List.of(params));
            return this;
        }

        /** Accepts {@code page} (≥ 1, default 1) and {@code limit} (1–100, default 50). */
        public Builder paginated() {
            this.paginated = true;
            return this;
        }

        public Builder shape(ResponseShape shape) {
            this.shape = shape;
            return this;
        }

        public Builder status(int successStatus) {
            this.successStatus = successStatus;
            return this;
        }

        /** The monthly quota a successful call consumes: one this plugin declared with {@code Registrar.quota}. */
        public Builder quota(String counter) {
            this.quota = counter;
            return this;
        }

        public Builder summary(String summary) {
            this.summary = summary;
            return this;
        }

        /**
         * The handler runs without a request transaction (as {@link #withoutTransaction()}) and answers only from
         * tool calls it makes through the platform's {@code ToolGateway}, each of which opens its own transaction;
         * it has no effect of its own. The platform may then admit the caller's key from its node's short cache
         * of admissions: each tool call's transaction re-checks the key in its first statement (a revoked key still
         * fails on the next call), so a call costs one database round trip less.
         */
        public Builder answersFromToolCalls() {
            this.transactional = false;
            this.answersFromToolCalls = true;
            return this;
        }

        /**
         * The handler runs without a request transaction ({@link ApiRequest#tx()} is unavailable), because what
         * it calls opens its own (e.g. a tool call through the platform's gateway). {@code Idempotency-Key} is
         * refused on such a route: there is no transaction to store the response in with the effect.
         */
        public Builder withoutTransaction() {
            this.transactional = false;
            return this;
        }

        public RouteSpec handler(Handler handler) {
            checkScope();
            return new RouteSpec(method, path, scope, bodySchema, query, paginated, shape, successStatus, quota,
                    summary, transactional, answersFromToolCalls, responseSchema, answers,
                    Objects.requireNonNull(handler, "handler"), null);
        }

        /**
         * A route that speaks its own protocol over HTTP: the platform authenticates, checks scope, limits and
         * body size, audits, and answers its own failures as problem+json; the handler gets the raw body and
         * writes the whole response. No body schema, query declaration, quota or transaction applies.
         */
        public RouteSpec raw(RawHandler handler) {
            checkScope();
            if (bodySchema != null || !query.isEmpty() || paginated || quota != null) {
                throw new IllegalStateException(method + " " + path
                        + ": a raw route takes no body schema, query parameters, pagination or quota");
            }
            return new RouteSpec(method, path, scope, null, List.of(), false, shape, successStatus, null, summary,
                    false, false, responseSchema, answers, null, Objects.requireNonNull(handler, "raw handler"));
        }

        private void checkScope() {
            if (scope == null && !isPublic) {
                throw new IllegalStateException(method + " " + path + " needs a scope or publicRoute()");
            }
        }
    }
}
