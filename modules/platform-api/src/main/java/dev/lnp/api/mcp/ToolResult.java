package dev.lnp.api.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.http.Listing;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** What a tool returns: the data (matching the tool's output schema) and the resources it touched. */
public record ToolResult(Object data, List<EntityRef> entities) {

    public ToolResult {
        entities = List.copyOf(entities);
    }

    public static ToolResult of(Object data, EntityRef... entities) {
        return new ToolResult(data, List.of(entities));
    }

    /** A list tool's answer, {@code {items, pagination}} (as the REST route's page), naming no entity. */
    public static ToolResult listed(Listing<?> page) {
        return new ToolResult(data(page), List.of());
    }

    /** A list tool's answer, with every listed row recorded as an entity of this type that was read. */
    public static ToolResult listed(Listing<?> page, String entityType) {
        return new ToolResult(data(page), page.items().stream()
                .map(item -> new EntityRef(entityType, idOf(item), "read")).toList());
    }

    private static Map<String, Object> data(Listing<?> page) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("items", page.items());
        data.put("pagination", page.page());
        return data;
    }

    /** The {@code id} of a row: a JSON object's text field or a map's UUID (or text) value. */
    private static UUID idOf(Object item) {
        Object id = item instanceof JsonNode node ? node.path("id").asText(null)
                : item instanceof Map<?, ?> map ? map.get("id") : null;
        if (id instanceof UUID uuid) {
            return uuid;
        }
        if (id instanceof String text) {
            return UUID.fromString(text);
        }
        throw new IllegalArgumentException("a listed row has no id: " + item);
    }
}
