package dev.lnp.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.mcp.ToolResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One page of a list and the exact number of rows matching it: what a repository's list query returns, shared by
 * the REST route (the {@code {data, pagination}} envelope) and the list tool (the same two fields as
 * {@code {items, pagination}}, see {@link dev.lnp.api.JsonSchemas#pageOutput}).
 *
 * @param items the rows of the page, as the API returns them (JSON objects or maps)
 */
public record Listing<T>(List<T> items, Page page) {

    public Listing {
        items = List.copyOf(items);
    }

    /** The page {@code request} asked for, of {@code total} matching rows. */
    public static <T> Listing<T> of(List<T> items, PageRequest request, long total) {
        return new Listing<>(items, Page.of(request, total));
    }

    /** The REST answer: the items as {@code data}, with the pagination object. */
    public ApiResponse response() {
        return ApiResponse.page(items, page);
    }

    /** The tool answer, {@code {items, pagination}}, naming no entity. */
    public ToolResult toolResult() {
        return ToolResult.of(data());
    }

    /** The tool answer, with every listed row recorded as an entity of this type that was read. */
    public ToolResult toolResult(String entityType) {
        return new ToolResult(data(), items.stream().map(item -> new EntityRef(entityType, idOf(item), "read")).toList());
    }

    private Map<String, Object> data() {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("items", items);
        data.put("pagination", page);
        return data;
    }

    /** The {@code id} of a row: a JSON object's text field or a map's UUID (or text) value. */
    static UUID idOf(Object item) {
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
