package dev.lnp.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
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
     * input), so a filter is declared once for REST and MCP. One rule per property, {@code page} and {@code limit}
     * left out (they come with {@code paginated()}): {@code enum} gives {@link #oneOf}; {@code format} {@code uuid}
     * or {@code date} gives that type; {@code type} {@code number}, {@code integer} or {@code boolean} gives that
     * type; anything else is a string; an {@code array} property is the repeatable parameter of its
     * {@code items}. The description is the property's {@code description}.
     */
    public static List<QueryParam> fromSchema(JsonNode listSchema) {
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
            return oneOf(name, values, description);
        }
        Type type = switch (property.path("format").asText()) {
            case "uuid" -> Type.UUID;
            case "date" -> Type.DATE;
            default -> switch (property.path("type").asText()) {
                case "number" -> Type.NUMBER;
                case "integer" -> Type.INTEGER;
                case "boolean" -> Type.BOOLEAN;
                default -> Type.STRING;
            };
        };
        return new QueryParam(name, type, false, List.of(), description);
    }

    public QueryParam asRepeatable() {
        return new QueryParam(name, type, true, allowed, description);
    }
}
