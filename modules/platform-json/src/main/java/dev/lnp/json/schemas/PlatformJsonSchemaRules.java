package dev.lnp.json.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.JsonSchemaRules;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.http.QueryParam;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * The platform's {@link JsonSchemaRules}: PATCH and MCP tool schemas derived from a route's create schema (each field's
 * rules written once, REST and MCP validating with the same document), list query parameters read from a list
 * schema, and where each loaded or derived schema came from. Provided to the API through {@link java.util.ServiceLoader}.
 */
public final class PlatformJsonSchemaRules implements JsonSchemaRules {

    /**
     * Where each loaded or derived schema came from, for listings ({@code platform routes --verbose}). Weak, so
     * schemas of unloaded plugins go; keyed by content but answered only for the very node that was recorded, so
     * an equal document built in code is not taken for the file.
     */
    private static final Map<JsonNode, Source> SOURCES = Collections.synchronizedMap(new WeakHashMap<>());

    private record Source(WeakReference<JsonNode> node, String name) {
    }

    @Override
    public Optional<String> sourceOf(JsonNode node) {
        Source source = node == null ? null : SOURCES.get(node);
        return source != null && source.node().get() == node ? Optional.of(source.name()) : Optional.empty();
    }

    @Override
    public <T extends JsonNode> T remember(T node, String source) {
        synchronized (SOURCES) {
            // Replace the key too: an equal document recorded earlier must not keep this entry's lifetime.
            SOURCES.remove(node);
            SOURCES.put(node, new Source(new WeakReference<>(node), source));
        }
        return node;
    }

    /**
     * The create schema with nothing required, at least one field, and {@code null} allowed (to clear a value)
     * on every field except {@code notNullable}.
     */
    @Override
    public ObjectNode patchOf(JsonNode create, String title, Set<String> notNullable) {
        ObjectNode patch = create.deepCopy();
        patch.put("title", title);
        patch.remove("required");
        patch.put("minProperties", 1);
        ObjectNode properties = (ObjectNode) patch.get("properties");
        properties.fieldNames().forEachRemaining(name -> {
            if (!notNullable.contains(name)) {
                allowNull((ObjectNode) properties.get(name));
            }
        });
        sourceOf(create).ifPresent(source -> remember(patch, "patch of " + source));
        return patch;
    }

    /**
     * The property also takes {@code null}: {@code "string"} becomes {@code ["string", "null"]}; a list of types
     * that already has {@code "null"} (e.g. an optional object) stays as it is, and so does a property without a
     * type. An {@code enum} gets {@code null} once.
     */
    private static void allowNull(ObjectNode property) {
        JsonNode type = property.get("type");
        if (type != null && type.isTextual()) {
            property.set("type", Json.mapper().createArrayNode().add(type.asText()).add("null"));
        } else if (type != null && type.isArray() && !contains(type, "null")) {
            ((ArrayNode) type).add("null");
        }
        if (property.get("enum") instanceof ArrayNode values && !containsNull(values)) {
            values.addNull();
        }
    }

    private static boolean contains(JsonNode array, String text) {
        for (JsonNode item : array) {
            if (item.isTextual() && item.asText().equals(text)) {
                return true;
            }
        }
        return false;
    }

    private static boolean containsNull(JsonNode array) {
        for (JsonNode item : array) {
            if (item.isNull()) {
                return true;
            }
        }
        return false;
    }

    /** A tool's input: the route's body schema plus the path's id. */
    @Override
    public ObjectNode withId(JsonNode body, String idDescription) {
        ObjectNode schema = body.deepCopy();
        ObjectNode properties = Json.object();
        properties.set("id", Json.object().put("type", "string").put("format", "uuid").put("description", idDescription));
        body.path("properties").fields().forEachRemaining(e -> properties.set(e.getKey(), e.getValue().deepCopy()));
        schema.set("properties", properties);
        ArrayNode required = Json.mapper().createArrayNode().add("id");
        body.path("required").forEach(required::add);
        schema.set("required", required);
        if (schema.has("minProperties")) {
            schema.put("minProperties", schema.get("minProperties").asInt() + 1);
        }
        return schema;
    }

    @Override
    public ObjectNode idOnly(String title, String idDescription) {
        ObjectNode schema = Json.object();
        schema.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        schema.put("title", title);
        schema.put("type", "object");
        schema.put("additionalProperties", false);
        schema.set("required", Json.mapper().createArrayNode().add("id"));
        schema.set("properties", Json.object().set("id",
                Json.object().put("type", "string").put("format", "uuid").put("description", idDescription)));
        return schema;
    }

    /** Tool input for a paginated list: page and limit with the REST route's bounds, plus extra filters. */
    @Override
    public ObjectNode pageInput(String title, ObjectNode extraProperties) {
        ObjectNode properties = Json.object();
        properties.set("page", Json.object().put("type", "integer").put("minimum", 1)
                .put("maximum", PageRequest.MAX_PAGE).put("default", 1));
        properties.set("limit", Json.object().put("type", "integer").put("minimum", 1).put("maximum", 100)
                .put("default", 50));
        properties.setAll(extraProperties);
        ObjectNode schema = Json.object();
        schema.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        schema.put("title", title);
        schema.put("type", "object");
        schema.put("additionalProperties", false);
        schema.set("properties", properties);
        return schema;
    }

    /** Tool output of a list: the items and the same pagination object the REST envelope carries. */
    @Override
    public ObjectNode pageOutput(JsonNode item) {
        ObjectNode schema = Json.object();
        schema.put("type", "object");
        schema.set("required", Json.mapper().createArrayNode().add("items").add("pagination"));
        ObjectNode properties = Json.object();
        properties.set("items", Json.object().put("type", "array").set("items", item));
        ObjectNode pagination = Json.object().put("type", "object");
        pagination.set("required", Json.mapper().createArrayNode().add("page").add("limit").add("total").add("hasMore"));
        ObjectNode fields = Json.object();
        fields.set("page", Json.object().put("type", "integer"));
        fields.set("limit", Json.object().put("type", "integer"));
        fields.set("total", Json.object().put("type", "integer"));
        fields.set("hasMore", Json.object().put("type", "boolean"));
        pagination.set("properties", fields);
        properties.set("pagination", pagination);
        schema.set("properties", properties);
        return schema;
    }

    /**
     * The schema of every deletion answer ({@link Deleted}): {@code id} and {@code deleted: true} always,
     * {@code kind} where a route deletes rows of several kinds, {@code deleted_at} for a soft delete.
     */
    @Override
    public ObjectNode deleted() {
        ObjectNode schema = Json.object();
        schema.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        schema.put("title", "Deletion result");
        schema.put("type", "object");
        schema.set("required", Json.mapper().createArrayNode().add("id").add("deleted"));
        ObjectNode properties = Json.object();
        properties.set("id", Json.object().put("type", "string").put("format", "uuid"));
        properties.set("kind", Json.object().put("type", "string")
                .put("description", "the kind of row deleted, where one route deletes several kinds"));
        properties.set("deleted", Json.object().put("const", true));
        properties.set("deleted_at", Json.object().put("type", "string").put("format", "date-time")
                .put("description", "when the row was soft-deleted; absent when it is gone for good"));
        schema.set("properties", properties);
        return remember(schema, "JsonSchemas.deleted()");
    }

    @Override
    public List<QueryParam> queryParams(JsonNode listSchema) {
        List<QueryParam> params = new ArrayList<>();
        listSchema.path("properties").fields().forEachRemaining(field -> {
            String name = field.getKey();
            if (!name.equals("page") && !name.equals("limit")) {
                JsonNode property = field.getValue();
                boolean repeatable = "array".equals(property.path("type").asText());
                QueryParam param = single(name, repeatable ? property.path("items") : property,
                        property.path("description").asText(""));
                params.add(repeatable ? param.asRepeatable() : param);
            }
        });
        return List.copyOf(params);
    }

    private static QueryParam single(String name, JsonNode property, String description) {
        if (property.has("enum")) {
            List<String> values = new ArrayList<>();
            property.get("enum").forEach(value -> values.add(value.asText()));
            return QueryParam.oneOf(name, values, description);
        }
        QueryParam.Type type = switch (property.path("format").asText()) {
            case "uuid" -> QueryParam.Type.UUID;
            case "date" -> QueryParam.Type.DATE;
            default -> switch (property.path("type").asText()) {
                case "number" -> QueryParam.Type.NUMBER;
                case "integer" -> QueryParam.Type.INTEGER;
                case "boolean" -> QueryParam.Type.BOOLEAN;
                default -> QueryParam.Type.STRING;
            };
        };
        return new QueryParam(name, type, false, List.of(), description);
    }
}
