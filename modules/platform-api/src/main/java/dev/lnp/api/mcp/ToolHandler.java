package dev.lnp.api.mcp;

@FunctionalInterface
public interface ToolHandler {
    ToolResult call(ToolCall call) throws Exception;
}
