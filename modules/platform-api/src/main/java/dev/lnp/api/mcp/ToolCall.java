package dev.lnp.api.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.workspace.Principal;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.PageRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** A tool invocation whose arguments already match the tool's input schema. */
public interface ToolCall {

    Principal principal();

    JsonNode arguments();

    WorkspaceTx tx();

    /** The {@code id} argument of a tool that addresses one resource (its schema requires a uuid). */
    default UUID id() {
        return UUID.fromString(arguments().get("id").asText());
    }

    /** The arguments without {@code id}: the same fields the REST route's body carries. */
    default JsonNode argumentsWithoutId() {
        ObjectNode copy = arguments().deepCopy();
        copy.remove("id");
        return copy;
    }

    /** {@code page} and {@code limit} of a list tool, with the REST defaults. */
    default PageRequest pageRequest() {
        return new PageRequest(arguments().path("page").asInt(1),
                arguments().path("limit").asInt(PageRequest.DEFAULT_LIMIT));
    }

    /** A single-valued argument as text, empty when absent or null (a list filter, like a query parameter). */
    default java.util.Optional<String> text(String name) {
        JsonNode value = arguments().get(name);
        return value == null || value.isNull() ? java.util.Optional.empty() : java.util.Optional.of(value.asText());
    }

    /** An array-of-strings argument (a repeatable filter), empty when absent. */
    default List<String> strings(String name) {
        List<String> values = new ArrayList<>();
        arguments().path(name).forEach(value -> values.add(value.asText()));
        return values;
    }
}
