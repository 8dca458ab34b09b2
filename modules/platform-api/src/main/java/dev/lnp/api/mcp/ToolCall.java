package dev.lnp.api.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Principal;
import dev.lnp.api.WorkspaceTx;

/** A tool invocation whose arguments already match the tool's input schema. */
public interface ToolCall {

    Principal principal();

    JsonNode arguments();

    WorkspaceTx tx();
}
