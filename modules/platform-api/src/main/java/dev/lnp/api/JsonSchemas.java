package dev.lnp.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.http.PageRequest;
import java.util.Set;

/**
 * Derives PATCH and MCP tool schemas from a route's create schema, so each field's rules are written once and
 * REST and MCP validate with the same document.
 */
public final class JsonSchemas {

    private JsonSchemas() {
    }

    /** {@code schemas/<name>} from the plugin's own jar. */
    public static JsonNode load(Class<?> owner, String name) {
        return Json.resource(owner, "schemas/" + name);
    }

    /**
     * The create schema with nothing required, at least one field, and {@code null} allowed (to clear a value)
     * on every field except {@code notNullable}.
     */
    public static ObjectNode patchOf(JsonNode create, String title, Set<String> notNullable) {
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
        Json.sourceOf(create).ifPresent(source -> Json.remember(patch, "patch of " + source));
        return patch;
    }

    private static void allowNull(ObjectNode property) {
        JsonNode type = property.get("type");
        ArrayNode types = Json.mapper().createArrayNode().add(type.asText()).add("null");
        property.set("type", types);
        if (property.has("enum")) {
            ((ArrayNode) property.get("enum")).addNull();
        }
    }

    /** A tool's input: the route's body schema plus the path's id. */
    public static ObjectNode withId(JsonNode body, String idDescription) {
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

    public static ObjectNode idOnly(String title, String idDescription) {
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
    public static ObjectNode pageInput(String title, ObjectNode extraProperties) {
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
    public static ObjectNode pageOutput(JsonNode item) {
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
    public static ObjectNode deleted() {
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
        return Json.remember(schema, "JsonSchemas.deleted()");
    }
}
