package dev.lnp.plugins.mcp.protocol;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.mcp.ToolAnnotations;
import dev.lnp.api.mcp.ToolDescriptor;

/** The parts of a tool's description both MCP surfaces show the same way. */
public final class ToolJson {

    private ToolJson() {
    }

    /** MCP's tool annotations, every hint given explicitly (MCP's defaults assume a destructive open-world tool). */
    public static ObjectNode annotations(ToolDescriptor tool) {
        ToolAnnotations a = tool.annotations();
        ObjectNode node = Json.object();
        if (tool.title() != null) {
            node.put("title", tool.title());
        }
        return node.put("readOnlyHint", a.readOnly())
                .put("destructiveHint", a.destructive())
                .put("idempotentHint", a.idempotent())
                .put("openWorldHint", a.openWorld());
    }
}
