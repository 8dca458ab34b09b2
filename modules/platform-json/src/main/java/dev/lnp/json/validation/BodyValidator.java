package dev.lnp.json.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.path.PathType;
import dev.lnp.api.http.FieldError;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Validates a request body (or MCP tool arguments) against a JSON Schema (draft 2020-12, formats asserted)
 * and turns every broken rule into a {@link FieldError} naming the field by JSON pointer. Schemas are
 * compiled once at start-up.
 *
 * <p>A schema may carry {@code "x-unknown-field-hints": {"company": "Use company_id or company_name."}} to
 * explain a field that is rejected as unknown.
 */
public final class BodyValidator {

    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(
            PlatformKeywords.register(Dialect.builder(Dialects.getDraft202012()).format(new MailboxFormat())).build(),
            builder -> builder.schemaRegistryConfig(SchemaRegistryConfig.builder()
                    .formatAssertionsEnabled(true)
                    .pathType(PathType.JSON_POINTER)
                    .build()));

    private final Schema schema;
    private final JsonNode hints;
    private final JsonNode rootRequired;

    private BodyValidator(Schema schema, JsonNode hints, JsonNode rootRequired) {
        this.schema = schema;
        this.hints = hints;
        this.rootRequired = rootRequired;
    }

    /** @param id a stable name for the schema, used in its location (e.g. {@code route:POST /api/v1/issues}) */
    public static BodyValidator compile(String id, JsonNode schemaNode) {
        String location = "urn:lnp:schema:" + id.replaceAll("[^A-Za-z0-9._-]", "_");
        Schema schema = REGISTRY.getSchema(SchemaLocation.of(location), schemaNode);
        schema.initializeValidators();
        return new BodyValidator(schema, schemaNode.path(PlatformKeywords.UNKNOWN_FIELD_HINTS),
                schemaNode.path("required"));
    }

    public List<FieldError> validate(JsonNode body) {
        // Checked before the schema, for every route and tool at once: PostgreSQL cannot store a NUL in text, and
        // the schema library throws on an infinite number in an enum; neither may reach a handler.
        List<FieldError> unstorable = new ArrayList<>();
        findUnstorable(body, "", unstorable);
        if (!unstorable.isEmpty()) {
            return unstorable;
        }
        List<Error> errors = schema.validate(body);
        if (errors.isEmpty()) {
            // Nearly every call: no list, sort or stream to make.
            return List.of();
        }
        List<FieldError> result = new ArrayList<>(errors.size());
        for (Error error : errors) {
            result.add(toFieldError(error));
        }
        result.sort(Comparator.comparing(FieldError::pointer));
        return result.stream().distinct().toList();
    }

    /** NUL characters in strings or field names, and numbers that overflowed to an infinity, by pointer. */
    private static void findUnstorable(JsonNode node, String pointer, List<FieldError> errors) {
        if (node.isTextual()) {
            if (node.textValue().indexOf('\u0000') >= 0) {
                errors.add(new FieldError(pointer, "no_nul", name(pointer) + " must not contain a NUL character"));
            }
        } else if (node.isFloatingPointNumber()) {
            if (!Double.isFinite(node.doubleValue())) {
                errors.add(new FieldError(pointer, "finite", name(pointer) + " must be a finite number"));
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                findUnstorable(node.get(i), pointer + "/" + i, errors);
            }
        } else if (node.isObject()) {
            for (var field : node.properties()) {
                if (field.getKey().indexOf('\u0000') >= 0) {
                    errors.add(new FieldError(pointer, "no_nul", "a field name in " + name(pointer)
                            + " contains a NUL character"));
                } else {
                    findUnstorable(field.getValue(), child(pointer, field.getKey()), errors);
                }
            }
        }
    }

    /**
     * The field a pointer names, as a reader would write it: {@code /name} is {@code name}; an array element
     * carries its array's name and index, {@code /tags/0} is {@code tags[0]}; the body itself is {@code body}.
     */
    static String name(String pointer) {
        if (pointer.isEmpty()) {
            return "body";
        }
        String[] segments = pointer.substring(1).split("/", -1);
        StringBuilder indexes = new StringBuilder();
        int i = segments.length - 1;
        while (i > 0 && isIndex(segments[i])) {
            indexes.insert(0, "[" + segments[i] + "]");
            i--;
        }
        String field = segments[i].replace("~1", "/").replace("~0", "~");
        if (isIndex(field) && i == 0) {
            // A top-level array (a body that is a list).
            return "body[" + field + "]" + indexes;
        }
        return field + indexes;
    }

    private static boolean isIndex(String segment) {
        return !segment.isEmpty() && segment.length() < 10 && segment.chars().allMatch(Character::isDigit);
    }

    private FieldError toFieldError(Error error) {
        String location = pointer(error.getInstanceLocation().toString());
        String keyword = error.getKeyword() == null ? "invalid" : error.getKeyword();
        return switch (keyword) {
            case "required" -> new FieldError(child(location, error.getProperty()), "required",
                    error.getProperty() + " is required");
            case "additionalProperties", "unevaluatedProperties" -> {
                String field = error.getProperty();
                String hint = hints.path(field).asText("");
                yield new FieldError(child(location, field), "unknown",
                        "unknown field " + field + (hint.isEmpty() ? "; it is not accepted here" : ": " + hint));
            }
            case "minProperties" -> new FieldError(location, keyword, atLeastFields(location, error));
            case "maxProperties" -> new FieldError(location, keyword, name(location) + " must set at most "
                    + argument(error) + " fields");
            default -> new FieldError(location, keyword, describe(location, error));
        };
    }

    /**
     * "the body must set at least one field" rather than the library's "must have at least 1 properties"; fields
     * the schema requires anyway (an MCP update tool's {@code id}) are named as not counting.
     */
    private String atLeastFields(String location, Error error) {
        int least = argument(error);
        List<String> required = new ArrayList<>();
        if (location.isEmpty()) {
            rootRequired.forEach(r -> required.add(r.asText()));
        }
        int beyond = required.isEmpty() || least <= required.size() ? least : least - required.size();
        String subject = location.isEmpty() ? "the body" : name(location);
        return subject + " must set at least " + (beyond == 1 ? "one field" : beyond + " fields")
                + (required.isEmpty() || least <= required.size() ? "" : " besides " + String.join(", ", required));
    }

    private static int argument(Error error) {
        Object[] arguments = error.getArguments();
        if (arguments != null && arguments.length > 0) {
            try {
                return Integer.parseInt(String.valueOf(arguments[0]));
            } catch (NumberFormatException e) {
                // Fall through to the default below.
            }
        }
        return 1;
    }

    /** The library's message without its own location prefix, which the pointer already gives. */
    private static String describe(String location, Error error) {
        String message = error.getMessage();
        String prefix = location + ": ";
        if (message.startsWith(prefix)) {
            message = message.substring(prefix.length());
        } else if (message.startsWith(": ")) {
            message = message.substring(2);
        }
        // "number found, integer expected" (or "[integer, null] expected"): a fraction where a whole number belongs.
        if ("type".equals(error.getKeyword()) && message.startsWith("number found, ") && message.contains("integer")) {
            return name(location) + " must be a whole number";
        }
        // "does not match the uuid pattern must be a valid RFC 4122 UUID" reads as two sentences run together.
        int must = message.startsWith("does not match the ") ? message.indexOf(" pattern must be ") : -1;
        if (must > 0) {
            message = message.substring(must + " pattern ".length());
        }
        return name(location) + " " + message;
    }

    private static String pointer(String path) {
        return path.equals("/") ? "" : path;
    }

    private static String child(String parent, String property) {
        return parent + "/" + property.replace("~", "~0").replace("/", "~1");
    }
}
