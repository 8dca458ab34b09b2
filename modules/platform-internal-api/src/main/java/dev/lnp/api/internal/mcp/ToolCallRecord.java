package dev.lnp.api.internal.mcp;

import dev.lnp.api.mcp.EntityRef;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * One recorded tool call. Arguments are never stored (writes may carry personal data); the entities it touched
 * are, by type, id and action.
 *
 * @param endpoint the route the call came through, e.g. {@code /api/mcp} or {@code /api/mcp/tools/call}
 * @param outcome {@link #OK}, {@link #DENIED}, {@link #UNKNOWN_TOOL}, {@link #INVALID_ARGUMENTS},
 *                {@link #REJECTED} (the tool answered a 4xx) or {@link #ERROR}
 * @param errorCode the problem code of a failed call, e.g. {@code tool_denied}; {@code null} when it succeeded
 */
public record ToolCallRecord(long id, Instant at, String requestId, UUID connectionId, String endpoint, String tool,
        String outcome, String errorCode, double durationMs, List<EntityRef> entities) {

    public static final String OK = "ok";
    public static final String DENIED = "denied";
    public static final String UNKNOWN_TOOL = "unknown_tool";
    public static final String INVALID_ARGUMENTS = "invalid_arguments";
    public static final String REJECTED = "rejected";
    public static final String ERROR = "error";

    public static final List<String> OUTCOMES = List.of(OK, DENIED, UNKNOWN_TOOL, INVALID_ARGUMENTS, REJECTED, ERROR);

    public ToolCallRecord {
        entities = List.copyOf(entities);
    }
}
