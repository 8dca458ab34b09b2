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
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An OpenAPI 3.1 document built from {@link RouteSpec}s: paths, scopes, query parameters and the very JSON Schemas
 * (draft 2020-12, OpenAPI 3.1's own dialect) that validate request bodies, so the document cannot drift from what
 * the server accepts. {@link OpenApiRoute} serves {@code /openapi/v1.json} with it; a plugin serves a document of
 * its own routes through {@link PlatformOpenApiDocuments}.
 *
 * <p>Responses are described by shape (the v1 envelope, the object itself, or problem+json) because routes
 * declare no response schemas; the {@code data} member is therefore free-form.
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
        tags.forEach(t -> tagList.addObject().put("name", t));
        doc.set("components", components);
        return doc;
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
        if (route.summary() != null) {
            op.put("summary", route.summary());
        }
        ArrayNode security = op.putArray("security");
        if (!route.isPublic()) {
            security.addObject().putArray("bearer").add(route.scope());
            op.put("description", "Needs the scope `" + route.scope() + "`.");
        }
        ArrayNode parameters = op.putArray("parameters");
        Matcher m = PATH_PARAM.matcher(route.path());
        while (m.find()) {
            parameters.addObject().put("name", m.group(1)).put("in", "path").put("required", true)
                    .putObject("schema").put("type", "string");
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
        if (route.bodySchema() != null) {
            String name = Character.toUpperCase(operationId.charAt(0)) + operationId.substring(1) + "Body";
            schemas.set(name, route.bodySchema().deepCopy());
            op.putObject("requestBody").put("required", true).putObject("content").putObject("application/json")
                    .putObject("schema").put("$ref", "#/components/schemas/" + name);
        }
        ObjectNode responses = op.putObject("responses");
        ObjectNode success = responses.putObject(String.valueOf(route.successStatus()));
        if (route.isRaw()) {
            success.put("description", "Answered by the route's own protocol.");
        } else if (route.successStatus() == 204) {
            success.put("description", "Done; no content.");
        } else {
            String shape = route.shape() == ResponseShape.DIRECT ? "Resource"
                    : route.paginated() ? "PageEnvelope" : "Envelope";
            success.put("description", route.shape() == ResponseShape.DIRECT ? "The resource itself."
                    : "The v1 envelope.");
            success.putObject("content").putObject("application/json").putObject("schema")
                    .put("$ref", "#/components/schemas/" + shape);
        }
        if (!route.query().isEmpty() || route.paginated() || route.bodySchema() != null) {
            responses.putObject("400").put("$ref", "#/components/responses/Problem");
        }
        if (!route.isPublic()) {
            responses.putObject("401").put("$ref", "#/components/responses/Problem");
            responses.putObject("403").put("$ref", "#/components/responses/Problem");
            responses.putObject("429").put("$ref", "#/components/responses/Problem");
        }
        responses.putObject("404").put("$ref", "#/components/responses/Problem");
        if (route.bodySchema() != null) {
            responses.putObject("413").put("$ref", "#/components/responses/Problem");
            responses.putObject("422").put("$ref", "#/components/responses/Problem");
        }
        responses.putObject("default").put("$ref", "#/components/responses/Problem");
        return op;
    }

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
                                   "properties": {"pointer": {"type": "string"}, "rule": {"type": "string"},
                                                  "message": {"type": "string"}}}}}}
                """));
    }

    private static void addSharedResponses(ObjectNode responses) {
        responses.putObject("Problem").put("description", "A problem (application/problem+json).")
                .putObject("content").putObject("application/problem+json").putObject("schema")
                .put("$ref", "#/components/schemas/Problem");
    }
}
