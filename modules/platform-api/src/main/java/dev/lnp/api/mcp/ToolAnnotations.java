package dev.lnp.api.mcp;

/**
 * MCP tool annotations, as clients read them to decide whether to ask their user first. In MCP's terms a tool is
 * destructive unless it only adds: changing or deleting existing data is destructive, creating is not.
 */
public record ToolAnnotations(boolean readOnly, boolean destructive, boolean idempotent, boolean openWorld) {

    public static ToolAnnotations read() {
        return new ToolAnnotations(true, false, true, false);
    }

    public static ToolAnnotations create() {
        return new ToolAnnotations(false, false, false, false);
    }

    /** Overwrites fields of an existing resource: destructive in MCP's sense, and repeating it changes nothing more. */
    public static ToolAnnotations update() {
        return new ToolAnnotations(false, true, true, false);
    }

    public static ToolAnnotations delete() {
        return new ToolAnnotations(false, true, true, false);
    }
}
