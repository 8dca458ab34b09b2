package dev.lnp.api.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Principal;
import dev.lnp.api.WorkspaceTx;

/** A tool invocation whose arguments already match the tool's input schema. */
public interface ToolCall {

    Principal principal();

    JsonNode arguments();

    WorkspaceTx tx();

    /** The {@code id} argument of a tool that addresses one resource (its schema requires a uuid). */
    default java.util.UUID id() {
        return java.util.UUID.fromString(arguments().get("id").asText());
    }

    /** The arguments without {@code id}: the same fields the REST route's body carries. */
    default JsonNode argumentsWithoutId() {
        var copy = (com.fasterxml.jackson.databind.node.ObjectNode) arguments().deepCopy();
        copy.remove("id");
        return copy;
    }

    /** {@code page} and {@code limit} of a list tool, with the REST defaults. */
    default dev.lnp.api.http.PageRequest pageRequest() {
        return new dev.lnp.api.http.PageRequest(arguments().path("page").asInt(1),
                arguments().path("limit").asInt(dev.lnp.api.http.PageRequest.DEFAULT_LIMIT));
    }
}
