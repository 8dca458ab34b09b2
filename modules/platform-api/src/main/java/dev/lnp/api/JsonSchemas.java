package dev.lnp.api;

import dev.lnp.api.http.JsonSchemaRules;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;

/**
 * Derives PATCH and MCP tool schemas from a route's create schema, so each field's rules are written once and
 * REST and MCP validate with the same document. The platform derives them ({@link JsonSchemaRules}).
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
        return JsonSchemaRules.PLATFORM.patchOf(create, title, notNullable);
    }

    /** A tool's input: the route's body schema plus the path's id. */
    public static ObjectNode withId(JsonNode body, String idDescription) {
        return JsonSchemaRules.PLATFORM.withId(body, idDescription);
    }

    /** A tool's input that is only the id of the row it acts on. */
    public static ObjectNode idOnly(String title, String idDescription) {
        return JsonSchemaRules.PLATFORM.idOnly(title, idDescription);
    }

    /** Tool input for a paginated list: page and limit with the REST route's bounds, plus extra filters. */
    public static ObjectNode pageInput(String title, ObjectNode extraProperties) {
        return JsonSchemaRules.PLATFORM.pageInput(title, extraProperties);
    }

    /** Tool output of a list: the items and the same pagination object the REST envelope carries. */
    public static ObjectNode pageOutput(JsonNode item) {
        return JsonSchemaRules.PLATFORM.pageOutput(item);
    }

    /** The schema of every deletion answer ({@link Deleted}): {@code id}, {@code deleted: true}, {@code kind}?, {@code deleted_at}?. */
    public static ObjectNode deleted() {
        return JsonSchemaRules.PLATFORM.deleted();
    }
}
