package dev.lnp.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.FieldError;
import dev.lnp.json.validation.PlatformJsonValidation;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The platform's own {@code /openapi/v1.json} as a contract for its answers: {@link #check} fails a test when a real
 * response's status is not listed for its operation, its content type differs from the one declared, a declared
 * header is missing, or its body breaks the declared schema (checked with the validator the platform applies to
 * request bodies: draft 2020-12, formats asserted). A route test calls it on the answers it already gets, so the
 * document cannot drift from the server.
 *
 * <pre>{@code
 * OpenApiContract contract = OpenApiContract.of(platform);
 * contract.check("GET", "/api/v1/crm/deals/{id}", platform.get("/api/v1/crm/deals/" + id, key));
 * }</pre>
 */
public final class OpenApiContract {

    private static final String SCHEMAS = "#/components/schemas/";

    private final JsonNode document;
    private final ObjectNode defs;
    private final PlatformJsonValidation validation = new PlatformJsonValidation();
    /** One schema node per declared response, so the validator compiles each once (it keeps them by identity). */
    private final Map<String, JsonNode> roots = new java.util.concurrent.ConcurrentHashMap<>();

    private OpenApiContract(JsonNode document) {
        this.document = document;
        this.defs = Json.object();
        document.path("components").path("schemas").properties()
                .forEach(e -> defs.set(e.getKey(), forValidation(e.getValue())));
    }

    /** The document the running platform serves. */
    public static OpenApiContract of(TestPlatform platform) {
        TestResponse response = platform.get("/openapi/v1.json", null);
        if (response.status() != 200) {
            throw new AssertionError("GET /openapi/v1.json answered " + response);
        }
        return new OpenApiContract(response.json());
    }

    public JsonNode document() {
        return document;
    }

    /**
     * Checks {@code response}, the answer to {@code method} on a path of the template {@code pathTemplate} (as the
     * document lists it, e.g. {@code /api/v1/issues/{id}}), against the operation's declared response.
     *
     * @return the response, for chaining
     */
    public TestResponse check(String method, String pathTemplate, TestResponse response) {
        String where = method + " " + pathTemplate + " answered " + response.status();
        JsonNode operation = document.path("paths").path(pathTemplate).path(method.toLowerCase(Locale.ROOT));
        if (!operation.isObject()) {
            throw new AssertionError(method + " " + pathTemplate + " is not in the OpenAPI document");
        }
        JsonNode declared = operation.path("responses").path(String.valueOf(response.status()));
        if (declared.isMissingNode()) {
            throw new AssertionError(where + ", a status the document does not list for it: "
                    + names(operation.path("responses")) + "; body " + response.body());
        }
        declared = resolve(declared);
        for (Iterator<Map.Entry<String, JsonNode>> headers = declared.path("headers").properties().iterator();
                headers.hasNext(); ) {
            Map.Entry<String, JsonNode> header = headers.next();
            if (resolve(header.getValue()).path("required").asBoolean(false)
                    && response.header(header.getKey()).isEmpty()) {
                throw new AssertionError(where + " without the header " + header.getKey() + " the document requires");
            }
        }
        JsonNode content = declared.path("content");
        if (content.isEmpty()) {
            if (!response.body().isEmpty()) {
                throw new AssertionError(where + " with a body, where the document declares none: " + response.body());
            }
            return response;
        }
        String type = response.header("Content-Type").orElse("").split(";")[0].trim().toLowerCase(Locale.ROOT);
        JsonNode media = content.path(type);
        if (media.isMissingNode()) {
            throw new AssertionError(where + " as " + type + "; the document declares " + names(content));
        }
        JsonNode schema = media.path("schema");
        if (schema.isMissingNode()) {
            return response;
        }
        JsonNode root = roots.computeIfAbsent(where + " " + type, k -> {
            ObjectNode built = (ObjectNode) forValidation(schema);
            built.set("$defs", defs);
            return built;
        });
        List<FieldError> errors = validation.validate(root, response.json());
        if (!errors.isEmpty()) {
            throw new AssertionError(where + " with a body the document's schema refuses: " + errors + "\n"
                    + response.body());
        }
        return response;
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new java.util.ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** A {@code $ref} to {@code #/components/responses/…} or {@code #/components/headers/…}, followed. */
    private JsonNode resolve(JsonNode node) {
        String ref = node.path("$ref").asText("");
        return ref.startsWith("#/") ? document.at(ref.substring(1)) : node;
    }

    /** The schema with every component reference pointing into {@code $defs}, and no nested {@code $schema}. */
    private static JsonNode forValidation(JsonNode schema) {
        JsonNode copy = schema.deepCopy();
        rewrite(copy);
        return copy;
    }

    private static void rewrite(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.remove("$schema");
            JsonNode ref = object.get("$ref");
            if (ref != null && ref.isTextual() && ref.asText().startsWith(SCHEMAS)) {
                object.put("$ref", "#/$defs/" + ref.asText().substring(SCHEMAS.length()));
            }
            object.forEach(OpenApiContract::rewrite);
        } else if (node.isArray()) {
            node.forEach(OpenApiContract::rewrite);
        }
    }
}
