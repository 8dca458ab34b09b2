package dev.lnp.api.mcp;

import java.util.List;

/** What a tool returns: the data (matching the tool's output schema) and the resources it touched. */
public record ToolResult(Object data, List<EntityRef> entities) {

    public ToolResult {
        entities = List.copyOf(entities);
    }

    public static ToolResult of(Object data, EntityRef... entities) {
        return new ToolResult(data, List.of(entities));
    }
}
