package dev.lnp.api.internal.mcp;

import dev.lnp.api.http.PageRequest;
import java.util.Optional;
import java.util.UUID;

/** Which recorded tool calls to list: optionally one tool, one outcome, one connection; one page. */
public record ToolCallFilter(Optional<String> tool, Optional<String> outcome, Optional<UUID> connectionId,
        PageRequest page) {
}
