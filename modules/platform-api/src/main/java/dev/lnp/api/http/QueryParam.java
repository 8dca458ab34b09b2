package dev.lnp.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A query parameter a route accepts. Parameters a route does not declare are rejected with 400, naming them.
 *
 * @param type how the value is checked before the handler runs
 * @param repeatable whether {@code ?status=a&status=b} is allowed
 * @param allowed for {@link Type#ENUM}, the exact (lowercase) values accepted
 */
public record QueryParam(String name, Type type, boolean repeatable, List<String> allowed, String description) {

    public enum Type { STRING, INTEGER, NUMBER, BOOLEAN, UUID, ENUM, DATE }

    public static QueryParam string(String name, String description) {
        return new QueryParam(name, Type.STRING, false, List.of(), description);
    }

    public static QueryParam uuid(String name, String description) {
        return new QueryParam(name, Type.UUID, false, List.of(), description);
    }

    public static QueryParam number(String name, String description) {
        return new QueryParam(name, Type.NUMBER, false, List.of(), description);
    }

    public static QueryParam bool(String name, String description) {
        return new QueryParam(name, Type.BOOLEAN, false, List.of(), description);
    }

    public static QueryParam oneOf(String name, List<String> values, String description) {
        return new QueryParam(name, Type.ENUM, false, List.copyOf(values), description);
    }

    /**
     * The query parameters of a list route, read from the list's JSON Schema (the file its list tool takes as
     * input), so a filter is declared once for REST and MCP: {@code enum} gives {@link #oneOf}, {@code format}
     * {@code uuid} or {@code date} and {@code type} {@code number}, {@code integer} or {@code boolean} give that type,
     * anything else is a string, an {@code array} is the repeatable parameter of its {@code items};
     * {@code page} and {@code limit} are left out (they come with {@code paginated()}).
     */
    public static List<QueryParam> fromSchema(JsonNode listSchema) {
        return dev.lnp.api.http.JsonSchemaRules.PLATFORM.queryParams(listSchema);
    }

    public QueryParam asRepeatable() {
        return new QueryParam(name, type, true, allowed, description);
    }
}
