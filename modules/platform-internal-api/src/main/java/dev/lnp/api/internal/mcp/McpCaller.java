package dev.lnp.api.internal.mcp;

import dev.lnp.api.workspace.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The caller of an MCP request as the platform authenticated it.
 *
 * @param keyExpiresAt when the key stops working: the connection's expiry or the end of a rotated secret's grace
 *                     period, whichever comes first
 * @param rateLimit the per-minute MCP budget after this request
 * @param toolCalls the key's lifetime budget of tool calls (restricted keys, e.g. agent trials), when it has one
 */
public record McpCaller(Principal principal, Optional<Instant> keyExpiresAt, RateLimit rateLimit,
        ToolPolicy toolPolicy, Optional<ToolCallBudget> toolCalls) {

    /** A caller without a tool-call budget. */
    public McpCaller(Principal principal, Optional<Instant> keyExpiresAt, RateLimit rateLimit, ToolPolicy toolPolicy) {
        this(principal, keyExpiresAt, rateLimit, toolPolicy, Optional.empty());
    }

    /**
     * A lifetime budget of tool calls: {@code remaining} as of this request. The call that would exceed it is
     * refused with 403 {@code tool_call_budget_exhausted}.
     */
    public record ToolCallBudget(int limit, int remaining) {
    }

    /** The fixed one-minute window of the MCP surface. */
    public record RateLimit(int limit, int remaining, long resetSeconds) {
    }

    /**
     * The connection's own tool settings.
     *
     * @param allowList when present, only these tools may be called
     * @param denyList tools this connection may never call
     * @param readOnlyTools only tools annotated read-only may be called
     * @param disabledModules plugins switched off for the workspace
     */
    public record ToolPolicy(Optional<List<String>> allowList, List<String> denyList, boolean readOnlyTools,
            List<String> disabledModules) {
    }
}
