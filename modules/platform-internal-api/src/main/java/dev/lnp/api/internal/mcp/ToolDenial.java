package dev.lnp.api.internal.mcp;

/**
 * Why a caller may not call a tool. When several reasons apply, the first of module disabled, denied for this
 * connection, missing scope is given.
 *
 * @param reason {@link #MODULE_DISABLED}, {@link #DENIED_FOR_CONNECTION} or {@link #MISSING_SCOPE}
 * @param setting for {@link #DENIED_FOR_CONNECTION}, the connection setting that denies it ({@code tool_deny},
 *                {@code tool_allow} or {@code read_only_tools}); else {@code null}
 * @param message for a person
 */
public record ToolDenial(String reason, String setting, String message) {

    public static final String MISSING_SCOPE = "missing_scope";
    public static final String DENIED_FOR_CONNECTION = "denied_for_connection";
    public static final String MODULE_DISABLED = "module_disabled";
}
