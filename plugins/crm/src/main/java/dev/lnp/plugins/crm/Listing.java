package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.Page;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.mcp.ToolResult;
import java.util.List;
import java.util.UUID;

/** One page of a list and the exact number of rows matching it. */
record Listing(List<ObjectNode> items, Page page) {

    /** The same content as the REST envelope, and every listed row as an entity that was read. */
    ToolResult asToolResult(String entityType) {
        ObjectNode data = Json.object();
        data.putArray("items").addAll(items);
        data.set("pagination", Json.mapper().valueToTree(page));
        return new ToolResult(data, items.stream()
                .map(item -> new EntityRef(entityType, UUID.fromString(item.get("id").asText()), "read"))
                .toList());
    }
}
