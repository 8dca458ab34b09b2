package dev.lnp.api.internal.mcp;

import dev.lnp.api.mcp.ToolDescriptor;
import java.util.Optional;

/**
 * One tool of the catalog with its permission for a caller.
 *
 * @param module the id of the plugin that registered the tool
 * @param denial why the caller may not call it; empty when allowed
 */
public record ToolEntry(String module, ToolDescriptor tool, Optional<ToolDenial> denial) {

    public boolean allowed() {
        return denial.isEmpty();
    }
}
