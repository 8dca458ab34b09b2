package dev.lnp.json.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.internal.http.JsonValidation;
import dev.lnp.api.http.FieldError;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link JsonValidation} on the pipeline's own {@link BodyValidator}. A plugin loads each schema once and passes the
 * same node on every call, so compiled schemas are kept per node (by identity: a schema node is not a key by value).
 */
public final class PlatformJsonValidation implements JsonValidation {

    private final Map<JsonNode, BodyValidator> compiled =
            java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());
    private final Map<String, Integer> names = new ConcurrentHashMap<>();

    @Override
    public List<FieldError> validate(JsonNode schema, JsonNode value) {
        BodyValidator validator = compiled.computeIfAbsent(schema, s -> BodyValidator.compile(
                "plugin:" + s.path("title").asText("schema") + "#" + names.merge(s.path("title").asText(""), 1, Integer::sum),
                s));
        return validator.validate(value);
    }
}
