package dev.lnp.api.mcp;

/** MCP tool annotations, as clients read them to decide whether to ask their user first. */
public record ToolAnnotations(boolean readOnly, boolean destructive, boolean idempotent, boolean openWorld) {

    public static ToolAnnotations read() {
        return new ToolAnnotations(true, false, true, false);
    }

    public static ToolAnnotations create() {
        return new ToolAnnotations(false, false, false, false);
    }

    public static ToolAnnotations update() {
        return new ToolAnnotations(false, false, true, false);
    }

    public static ToolAnnotations delete() {
        return new ToolAnnotations(false, true, true, false);
    }
}
