package dev.lnp.api.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * An MCP tool a plugin offers. The input schema is the same document the equivalent REST route validates
 * with, so the tool catalog cannot drift from what runs.
 *
 * @param scope the scope a key needs to call the tool
 * @param quota the monthly quota counter a call consumes, or {@code null}
 */
public record ToolDescriptor(
        String name,
        String title,
        String description,
        String scope,
        JsonNode inputSchema,
        JsonNode outputSchema,
        ToolAnnotations annotations,
        String quota,
        ToolHandler handler) {

    public ToolDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(scope, "scope of tool " + name);
        Objects.requireNonNull(inputSchema, "inputSchema of tool " + name);
        Objects.requireNonNull(outputSchema, "outputSchema of tool " + name);
        Objects.requireNonNull(annotations, "annotations of tool " + name);
        Objects.requireNonNull(handler, "handler of tool " + name);
        if (!name.matches("[a-z][a-z0-9_]{0,63}")) {
            throw new IllegalArgumentException("Tool name must be lowercase snake_case: " + name);
        }
    }
}
