package dev.lnp.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * How schemas are derived and traced to their files: implemented by the platform and found with {@link ServiceLoader},
 * once. Plugins call {@link dev.lnp.api.JsonSchemas}, {@link QueryParam#fromSchema} and {@link dev.lnp.api.Json}, which hand on to {@link #PLATFORM}.
 */
public interface JsonSchemaRules {

    /** The platform's implementation, resolved when a plugin first loads or derives a schema. */
    JsonSchemaRules PLATFORM = ServiceLoader.load(JsonSchemaRules.class, JsonSchemaRules.class.getClassLoader())
            .findFirst().orElseThrow(() -> new IllegalStateException("no " + JsonSchemaRules.class.getName()
                    + " on the module or class path: the platform's JSON library, lnp.platform.json, provides it"));

    Optional<String> sourceOf(JsonNode node);

    /** Records {@code source} as where {@code node} came from; returns {@code node}. */
    <T extends JsonNode> T remember(T node, String source);

    ObjectNode patchOf(JsonNode create, String title, Set<String> notNullable);

    ObjectNode withId(JsonNode body, String idDescription);

    ObjectNode idOnly(String title, String idDescription);

    ObjectNode pageInput(String title, ObjectNode extraProperties);

    ObjectNode pageOutput(JsonNode item);

    ObjectNode deleted();

    List<QueryParam> queryParams(JsonNode listSchema);
}
