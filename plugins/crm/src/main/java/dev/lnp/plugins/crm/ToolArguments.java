package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.http.PageRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Reading tool arguments that already matched the tool's input schema. */
final class ToolArguments {

    private ToolArguments() {
    }

    static PageRequest page(JsonNode args) {
        return new PageRequest(args.path("page").asInt(1), args.path("limit").asInt(PageRequest.DEFAULT_LIMIT));
    }

    static UUID id(JsonNode args) {
        return UUID.fromString(args.get("id").asText());
    }

    /** The arguments without {@code id}: the fields to change. */
    static ObjectNode fields(JsonNode args) {
        ObjectNode fields = args.deepCopy();
        fields.remove("id");
        return fields;
    }

    static List<String> strings(JsonNode args, String name) {
        List<String> values = new ArrayList<>();
        args.path(name).forEach(v -> values.add(v.asText()));
        return values;
    }
}
