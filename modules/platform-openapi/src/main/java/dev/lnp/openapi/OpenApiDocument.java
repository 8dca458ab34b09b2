package dev.lnp.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.HttpMethod;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.http.QueryParam;
import dev.lnp.api.http.ResponseShape;
import dev.lnp.api.http.RouteSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An OpenAPI 3.1 document built from {@link RouteSpec}s: paths, scopes, query parameters and the very JSON Schemas
 * (draft 2020-12, OpenAPI 3.1's own dialect) that validate request bodies, so the document cannot drift from what
 * the server accepts. {@link OpenApiRoute} serves {@code /openapi/v1.json} with it; a plugin serves a document of
 * its own routes through {@link PlatformOpenApiDocuments}.
 *
 * <p>A route that declares what it returns ({@link RouteSpec.Builder#returns}) gets that schema under
 * {@code components.schemas} (named by its title) and a success typed by it: the envelope with {@code data} the
 * object, a page of them with {@code pagination}, or the object itself ({@link ResponseShape#DIRECT}); the schema's
 * first {@code examples} entry becomes the response's example. A route that declares none keeps the free-form
 * {@code Envelope}. Every problem status the route can answer is listed ({@link #errorStatuses}), each a shared
 * problem+json response; 429 and 503 carry {@code Retry-After}.
 */
final class OpenApiDocument {

    private static final Pattern PATH_PARAM = Pattern.compile("\\{([^}/]+)}");

    private final String title;
    private final String version;
    private final List<String> servers = new ArrayList<>();
    private final List<Tagged> routes = new ArrayList<>();
    private String description;

    private record Tagged(String tag, RouteSpec route) {
    }

    private OpenApiDocument(String title, String version) {
        this.title = Objects.requireNonNull(title, "title");
        this.version = Objects.requireNonNull(version, "version");
    }

    /** @param version the version of the API the document describes ({@code info.version}) */
    static OpenApiDocument builder(String title, String version) {
        return new OpenApiDocument(title, version);
    }

    OpenApiDocument description(String text) {
        this.description = text;
        return this;
    }

    /** A base URL clients call (the deployment's public origin). */
    OpenApiDocument server(String url) {
        servers.add(url);
        return this;
    }

    /** Adds routes under one tag (the plugin id: generated clients group operations by it). */
    OpenApiDocument routes(String tag, List<RouteSpec> specs) {
        specs.forEach(spec -> routes.add(new Tagged(tag, spec)));
        return this;
    }

    ObjectNode build() {
        ObjectNode doc = Json.object();
        doc.put("openapi", "3.1.0");
        ObjectNode info = doc.putObject("info").put("title", title).put("version", version);
        if (description != null) {
            info.put("description", description);
        }
        doc.put("jsonSchemaDialect", "https://json-schema.org/draft/2020-12/schema");
        ArrayNode serverList = doc.putArray("servers");
        servers.forEach(url -> serverList.addObject().put("url", url));
        ObjectNode components = Json.object();
        ObjectNode schemas = components.putObject("schemas");
        addSharedSchemas(schemas);
        addSharedResponses(components.putObject("responses"));
        addSharedHeadersAndParameters(components);
        components.putObject("securitySchemes").putObject("bearer").put("type", "http").put("scheme", "bearer")
                .put("description", "An API key: Authorization: Bearer lnp_…");
        ObjectNode paths = doc.putObject("paths");
        List<String> tags = new ArrayList<>();
        for (Tagged tagged : routes) {
            RouteSpec route = tagged.route();
            ObjectNode item = paths.has(route.path()) ? (ObjectNode) paths.get(route.path())
                    : paths.putObject(route.path());
            item.set(route.method().name().toLowerCase(Locale.ROOT), operation(tagged.tag(), route, schemas));
            if (!tags.contains(tagged.tag())) {
                tags.add(tagged.tag());
            }
        }
        ArrayNode tagList = doc.putArray("tags");
        tags.forEach(t -> tagList.addObject().put("name", t).put("description", tagDescription(t)));
        doc.set("components", components);
        dropUnused(doc, components);
        return doc;
    }

    /** The module's routes and the scopes they need, e.g. "The routes of the crm module (scopes: deals.read, …)". */
    private String tagDescription(String tag) {
        List<String> scopes = routes.stream().filter(r -> r.tag().equals(tag) && !r.route().isPublic())
                .map(r -> r.route().scope()).distinct().sorted().toList();
        return "The routes of the " + tag + " module" + (scopes.isEmpty() ? " (public)."
                : " (scopes: " + String.join(", ", scopes) + ").");
    }

    /**
     * The shared parts no operation of this document refers to (e.g. {@code PreconditionFailed} when no route
     * answers 412, the free-form {@code Envelope} when every route declares what it returns) are left out.
     */
    private static void dropUnused(ObjectNode doc, ObjectNode components) {
        String used = doc.path("paths").toString() + components.path("responses") + components.path("schemas");
        List<String> unused = new ArrayList<>();
        components.path("responses").fieldNames().forEachRemaining(name -> {
            if (!used.contains("\"#/components/responses/" + name + "\"")) {
                unused.add(name);
            }
        });
        ((ObjectNode) components.get("responses")).remove(unused);
        for (String shared : List.of("Envelope", "PageEnvelope", "Resource", "Pagination")) {
            String referenced = doc.path("paths").toString() + components.path("responses")
                    + components.path("schemas");
            if (!referenced.contains("\"#/components/schemas/" + shared + "\"")) {
                ((ObjectNode) components.get("schemas")).remove(shared);
            }
        }
        for (String kind : List.of("parameters", "headers")) {
            String now = doc.path("paths").toString() + components.path("responses");
            List<String> names = new ArrayList<>();
            components.path(kind).fieldNames().forEachRemaining(names::add);
            names.removeIf(name -> now.contains("\"#/components/" + kind + "/" + name + "\""));
            ((ObjectNode) components.get(kind)).remove(names);
        }
    }

    /** {@code GET /api/v1/crm/deals/{id}} becomes {@code getCrmDealsById}: stable, unique per method and path. */
    static String operationId(HttpMethod method, String path) {
        StringBuilder id = new StringBuilder(method.name().toLowerCase(Locale.ROOT));
        String rest = path.startsWith("/api/v1/") ? path.substring("/api/v1/".length()) : path;
        for (String segment : rest.split("/")) {
            if (segment.isEmpty()) {
                continue;
            }
            Matcher param = PATH_PARAM.matcher(segment);
            if (param.matches()) {
                id.append("By");
                appendWords(id, param.group(1));
            } else {
                appendWords(id, segment);
            }
        }
        return id.toString();
    }

    private static void appendWords(StringBuilder id, String text) {
        for (String word : text.split("[^A-Za-z0-9]+")) {
            if (!word.isEmpty()) {
                id.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
            }
        }
    }

    private static ObjectNode operation(String tag, RouteSpec route, ObjectNode schemas) {
        String operationId = operationId(route.method(), route.path());
        ObjectNode op = Json.object();
        op.put("operationId", operationId);
        op.putArray("tags").add(tag);
        if (route.summary() != null && !route.summary().isBlank()) {
            op.put("summary", route.summary());
        } else {
            op.put("summary", route.method().name() + " " + route.path());
        }
        ArrayNode security = op.putArray("security");
        if (!route.isPublic()) {
            security.addObject().putArray("bearer").add(route.scope());
            op.put("description", "Needs the scope `" + route.scope() + "`.");
        }
        ArrayNode parameters = op.putArray("parameters");
        List<String> uuids = route.uuidPathParameters();
        for (String name : route.pathParameters()) {
            ObjectNode p = parameters.addObject().put("name", name).put("in", "path").put("required", true);
            if (uuids.contains(name)) {
                p.put("description", "an id (UUID); anything else is answered 400 invalid_path_parameter");
                p.putObject("schema").put("type", "string").put("format", "uuid");
            } else {
                p.putObject("schema").put("type", "string");
            }
        }
        if (route.paginated()) {
            parameters.addObject().put("name", "page").put("in", "query").put("description", "page, from 1")
                    .putObject("schema").put("type", "integer").put("minimum", 1).put("default", 1);
            parameters.addObject().put("name", "limit").put("in", "query")
                    .put("description", "items per page, 1 to " + PageRequest.MAX_LIMIT).putObject("schema")
                    .put("type", "integer").put("minimum", 1).put("maximum", PageRequest.MAX_LIMIT)
                    .put("default", PageRequest.DEFAULT_LIMIT);
        }
        for (QueryParam q : route.query()) {
            ObjectNode p = parameters.addObject().put("name", q.name()).put("in", "query");
            if (q.description() != null) {
                p.put("description", q.description());
            }
            ObjectNode value = querySchema(q);
            if (q.repeatable()) {
                p.put("style", "form").put("explode", true);
                ObjectNode array = p.putObject("schema").put("type", "array");
                array.set("items", value);
            } else {
                p.set("schema", value);
            }
        }
        boolean idempotent = takesIdempotencyKey(route);
        if (idempotent) {
            parameters.addObject().put("$ref", "#/components/parameters/IdempotencyKey");
        }
        if (route.bodySchema() != null) {
            String name = Character.toUpperCase(operationId.charAt(0)) + operationId.substring(1) + "Body";
            schemas.set(name, route.bodySchema().deepCopy());
            op.putObject("requestBody").put("required", true).putObject("content").putObject("application/json")
                    .putObject("schema").put("$ref", "#/components/schemas/" + name);
        }
        ObjectNode responses = op.putObject("responses");
        responses.set(String.valueOf(route.successStatus()), success(route, operationId, schemas, idempotent));
        for (int status : errorStatuses(route)) {
            responses.putObject(String.valueOf(status)).put("$ref", "#/components/responses/" + PROBLEMS.get(status));
        }
        responses.putObject("default").put("$ref", "#/components/responses/Problem");
        return op;
    }

    /** What the pipeline does with an authenticated POST that runs in the request's transaction. */
    private static boolean takesIdempotencyKey(RouteSpec route) {
        return !route.isRaw() && !route.isPublic() && route.method() == HttpMethod.POST && route.transactional();
    }

    private static ObjectNode success(RouteSpec route, String operationId, ObjectNode schemas, boolean idempotent) {
        ObjectNode success = Json.object();
        if (route.isRaw()) {
            return success.put("description", "Answered by the route's own protocol.");
        }
        if (route.successStatus() == 204) {
            return success.put("description", "Done; no content.");
        }
        ObjectNode headers = Json.object();
        if (route.path().startsWith("/api/v1/")) {
            headers.putObject("X-API-Version").put("$ref", "#/components/headers/ApiVersion");
        }
        if (idempotent) {
            headers.putObject("Idempotent-Replayed").put("$ref", "#/components/headers/IdempotentReplayed");
        }
        if (!headers.isEmpty()) {
            success.set("headers", headers);
        }
        ObjectNode media = Json.object();
        JsonNode returned = route.responseSchema();
        if (returned == null) {
            String shape = route.shape() == ResponseShape.DIRECT ? "Resource"
                    : route.paginated() ? "PageEnvelope" : "Envelope";
            success.put("description", route.shape() == ResponseShape.DIRECT ? "The resource itself."
                    : "The v1 envelope.");
            media.putObject("schema").put("$ref", "#/components/schemas/" + shape);
        } else {
            String item = component(schemas, returned, Character.toUpperCase(operationId.charAt(0))
                    + operationId.substring(1) + "Result");
            JsonNode example = returned.path("examples").path(0);
            String itemRef = "#/components/schemas/" + item;
            if (route.shape() == ResponseShape.DIRECT) {
                success.put("description", "The " + item + " itself, not wrapped in an envelope.");
                media.putObject("schema").put("$ref", itemRef);
                if (!example.isMissingNode()) {
                    media.set("example", example.deepCopy());
                }
            } else if (route.paginated()) {
                String page = item + "Page";
                if (!schemas.has(page)) {
                    ObjectNode envelope = schemas.putObject(page).put("type", "object")
                            .put("description", "A page of " + item + " in the v1 envelope.");
                    envelope.putArray("required").add("data").add("pagination");
                    ObjectNode props = envelope.putObject("properties");
                    props.putObject("data").put("type", "array").putObject("items").put("$ref", itemRef);
                    props.putObject("pagination").put("$ref", "#/components/schemas/Pagination");
                }
                success.put("description", "A page of " + item + " in the v1 envelope.");
                media.putObject("schema").put("$ref", "#/components/schemas/" + page);
                if (!example.isMissingNode()) {
                    ObjectNode ex = media.putObject("example");
                    ex.putArray("data").add(example.deepCopy());
                    ex.putObject("pagination").put("page", 1).put("limit", PageRequest.DEFAULT_LIMIT).put("total", 1)
                            .put("hasMore", false);
                }
            } else {
                String single = item + "Envelope";
                if (!schemas.has(single)) {
                    ObjectNode envelope = schemas.putObject(single).put("type", "object")
                            .put("description", "A " + item + " in the v1 envelope.");
                    envelope.putArray("required").add("data");
                    envelope.putObject("properties").putObject("data").put("$ref", itemRef);
                }
                success.put("description", "The " + item + " in the v1 envelope.");
                media.putObject("schema").put("$ref", "#/components/schemas/" + single);
                if (!example.isMissingNode()) {
                    media.putObject("example").set("data", example.deepCopy());
                }
            }
        }
        success.putObject("content").set("application/json", media);
        return success;
    }

    /**
     * The name under {@code components.schemas} of a declared response schema: its {@code title} in PascalCase
     * ({@code "Issue bulk update result"} → {@code IssueBulkUpdateResult}), shared by every route that returns the
     * same schema; {@code fallback} when it has no title or another schema already took the name.
     */
    private static String component(ObjectNode schemas, JsonNode schema, String fallback) {
        ObjectNode copy = schema.deepCopy();
        copy.remove("$schema");
        copy.remove("examples");
        StringBuilder name = new StringBuilder();
        appendWords(name, copy.path("title").asText(""));
        for (String candidate : name.isEmpty() ? List.of(fallback) : List.of(name.toString(), fallback)) {
            JsonNode taken = schemas.get(candidate);
            if (taken == null) {
                schemas.set(candidate, copy);
                return candidate;
            }
            if (taken.equals(copy)) {
                return candidate;
            }
        }
        for (int n = 2; ; n++) {
            String candidate = fallback + n;
            if (!schemas.has(candidate) || schemas.get(candidate).equals(copy)) {
                schemas.set(candidate, copy);
                return candidate;
            }
        }
    }

    /**
     * The problem statuses a route can answer, from what the platform's pipeline does with it (RouteSteps) and what
     * the route declares its handler answers ({@link RouteSpec#answers()}); 500 is the {@code default}.
     */
    static Set<Integer> errorStatuses(RouteSpec route) {
        Set<Integer> statuses = new TreeSet<>();
        boolean admitted = !route.isPublic();
        if (!route.isRaw() || !route.uuidPathParameters().isEmpty()) {
            statuses.add(400); // unknown or malformed query parameter, malformed id in the path, bad JSON
        }
        if (admitted) {
            statuses.add(401);
            statuses.add(403);
            statuses.add(429); // the key's rate limit, and a monthly quota on routes that take one
        }
        statuses.add(404); // the resource is not in the workspace, or the module is off for it
        if (!route.isRaw() && route.transactional() && route.method() != HttpMethod.GET && admitted) {
            statuses.add(409); // concurrent_update after retries, and the handler's conflicts
        }
        if (route.bodySchema() != null || route.isRaw() && route.method() != HttpMethod.GET) {
            statuses.add(413);
        }
        if (route.bodySchema() != null) {
            statuses.add(415);
            statuses.add(422);
        }
        if (takesIdempotencyKey(route)) {
            statuses.add(422); // idempotency_key_reused
        }
        statuses.add(503); // the database is unreachable
        statuses.addAll(route.answers());
        return statuses;
    }

    /** Each documented problem status and the name of its shared response under {@code components.responses}. */
    private static final Map<Integer, String> PROBLEMS = Map.ofEntries(
            Map.entry(400, "BadRequest"), Map.entry(401, "Unauthorized"), Map.entry(403, "Forbidden"),
            Map.entry(404, "NotFound"), Map.entry(405, "MethodNotAllowed"), Map.entry(409, "Conflict"),
            Map.entry(410, "Gone"), Map.entry(412, "PreconditionFailed"), Map.entry(413, "ContentTooLarge"),
            Map.entry(415, "UnsupportedMediaType"), Map.entry(422, "UnprocessableContent"),
            Map.entry(428, "PreconditionRequired"), Map.entry(429, "TooManyRequests"),
            Map.entry(500, "InternalServerError"), Map.entry(502, "BadGateway"), Map.entry(503, "ServiceUnavailable"),
            Map.entry(504, "GatewayTimeout"));

    private static ObjectNode querySchema(QueryParam q) {
        ObjectNode s = Json.object();
        switch (q.type()) {
            case STRING -> s.put("type", "string");
            case INTEGER -> s.put("type", "integer");
            case NUMBER -> s.put("type", "number");
            case BOOLEAN -> s.put("type", "boolean");
            case UUID -> s.put("type", "string").put("format", "uuid");
            case DATE -> s.put("type", "string").put("format", "date");
            case ENUM -> {
                s.put("type", "string");
                ArrayNode values = s.putArray("enum");
                q.allowed().forEach(values::add);
            }
        }
        return s;
    }

    private static void addSharedSchemas(ObjectNode schemas) {
        schemas.set("Pagination", Json.parse("""
                {"type": "object", "required": ["page", "limit", "total", "hasMore"],
                 "properties": {"page": {"type": "integer"}, "limit": {"type": "integer"},
                                "total": {"type": "integer"}, "hasMore": {"type": "boolean"}}}
                """));
        schemas.set("Envelope", Json.parse("""
                {"type": "object", "required": ["data"],
                 "description": "The standard v1 envelope; data is the route's result.",
                 "properties": {"data": {}}}
                """));
        schemas.set("PageEnvelope", Json.parse("""
                {"type": "object", "required": ["data", "pagination"],
                 "properties": {"data": {"type": "array", "items": {}},
                                "pagination": {"$ref": "#/components/schemas/Pagination"}}}
                """));
        schemas.set("Resource", Json.parse("""
                {"type": "object", "description": "The created or read object itself, without an envelope."}
                """));
        schemas.set("Problem", Json.parse("""
                {"type": "object", "required": ["type", "title", "status", "code"],
                 "description": "RFC 9457 problem details with the platform's stable code and the request id.",
                 "properties": {"type": {"type": "string"}, "title": {"type": "string"},
                                "status": {"type": "integer"}, "detail": {"type": "string"},
                                "code": {"type": "string"}, "request_id": {"type": "string"},
                                "errors": {"type": "array", "items": {"type": "object",
                                   "required": ["pointer", "rule", "message"],
                                   "properties": {"pointer": {"type": "string"}, "rule": {"type": "string"},
                                                  "message": {"type": "string"}}}},
                                "errors_omitted": {"type": "integer", "minimum": 1}},
                 "examples": [{"type": "https://lnp.dev/problems/validation-failed", "title": "Unprocessable Content", "status": 422,
                               "detail": "title is required", "code": "validation_failed",
                               "request_id": "3f1c2b7a-9d4e-4c8b-a1f0-6e5d4c3b2a19",
                               "errors": [{"pointer": "/title", "rule": "required",
                                           "message": "title is required"}]}]}
                """));
    }

    private static void addSharedResponses(ObjectNode responses) {
        problem(responses, "Problem", "A problem (application/problem+json); 500 internal_error carries only the "
                + "request id.", null);
        problem(responses, "BadRequest", "The request is malformed: invalid_json, invalid_query, "
                + "unknown_query_parameter, invalid_path_parameter, missing_body, invalid_idempotency_key, "
                + "idempotency_not_supported. Do not retry unchanged.", null);
        ObjectNode unauthorized = problem(responses, "Unauthorized", "No usable key: missing_credentials, "
                + "malformed_authorization, invalid_key, expired_key, revoked_key, legacy_key_retired.", null);
        unauthorized.putObject("headers").putObject("WWW-Authenticate").put("description",
                "The Bearer challenge (RFC 6750)").put("required", true).putObject("schema").put("type", "string");
        problem(responses, "Forbidden", "The key lacks the route's scope (missing_scope).", null);
        problem(responses, "NotFound", "not_found: the resource is not in the key's workspace; route_not_found: the "
                + "module is off for the workspace.", null);
        problem(responses, "MethodNotAllowed", "The path is served, not with this method.", null);
        problem(responses, "Conflict", "A conflict: a plugin's own code (duplicate identifiers, invalid_transition, "
                + "…) or concurrent_update (the transaction was aborted three times; nothing was saved). Read the "
                + "current resource before deciding.", null);
        problem(responses, "Gone", "The resource existed and is gone for good.", null);
        problem(responses, "PreconditionFailed", "If-Match named a version the resource no longer has.", null);
        problem(responses, "ContentTooLarge", "The body is larger than lnp.http.max_body_bytes "
                + "(payload_too_large).", null);
        problem(responses, "UnsupportedMediaType", "Content-Type is not application/json with a UTF-8 charset "
                + "(unsupported_media_type).", null);
        problem(responses, "UnprocessableContent", "The body breaks the route's schema or rules "
                + "(validation_failed, errors[] names each field), or the Idempotency-Key was used with another "
                + "request (idempotency_key_reused).", null);
        problem(responses, "PreconditionRequired", "The route needs If-Match.", null);
        problem(responses, "TooManyRequests", "rate_limited (the key's per-minute limit) or quota_exceeded (a "
                + "monthly quota); honour Retry-After.", "RetryAfter");
        problem(responses, "InternalServerError", "internal_error; quote the request id.", null);
        problem(responses, "BadGateway", "An upstream failed.", null);
        problem(responses, "ServiceUnavailable", "database_unavailable: the database is not reachable; retry after "
                + "Retry-After.", "RetryAfter");
        problem(responses, "GatewayTimeout", "An upstream did not answer in time.", null);
    }

    private static ObjectNode problem(ObjectNode responses, String name, String description, String retryAfter) {
        ObjectNode response = responses.putObject(name).put("description", description);
        if (retryAfter != null) {
            response.putObject("headers").putObject("Retry-After").put("$ref", "#/components/headers/" + retryAfter);
        }
        response.putObject("content").putObject("application/problem+json").putObject("schema")
                .put("$ref", "#/components/schemas/Problem");
        return response;
    }

    private static void addSharedHeadersAndParameters(ObjectNode components) {
        ObjectNode headers = components.putObject("headers");
        headers.putObject("RetryAfter").put("description", "Seconds to wait before trying again.")
                .put("required", true).putObject("schema").put("type", "integer").put("minimum", 0);
        headers.putObject("ApiVersion").put("description", "The REST contract's version, on every /api/v1 answer.")
                .put("required", true).putObject("schema").put("type", "string").put("const", "v1");
        headers.putObject("IdempotentReplayed").put("description", "true when the answer is the stored one of an "
                + "earlier request with the same Idempotency-Key (the handler did not run again).")
                .putObject("schema").put("type", "string").putArray("enum").add("true");
        components.putObject("parameters").putObject("IdempotencyKey").put("name", "Idempotency-Key")
                .put("in", "header").put("required", false)
                .put("description", "1 to 255 visible ASCII characters. The same key from the same connection with "
                        + "the same request within 24 hours replays the stored answer; with another request: 422.")
                .putObject("schema").put("type", "string").put("minLength", 1).put("maxLength", 255)
                .put("pattern", "^[\\x21-\\x7E]+$");
    }
}
