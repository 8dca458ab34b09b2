package dev.lnp.api.internal.mcp;

import dev.lnp.api.http.Page;
import java.util.List;

/** A page of recorded tool calls. */
public record ToolCallPage(List<ToolCallRecord> items, Page page) {

    public ToolCallPage {
        items = List.copyOf(items);
    }
}
