package dev.lnp.web.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.internal.http.JsonValidation;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.internal.console.Choice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A form generated from a JSON Schema (an object schema): one field per property, in the schema's order. It turns
 * what a browser posted into the JSON object the schema describes, checks it with the platform's validator (the
 * one the API uses) and words each broken rule for a person, next to its field.
 */
public final class SchemaForm {

    /** Above this {@code maxLength} a string is a text area rather than a one-line input. */
    /** Names, titles, addresses and ids (up to 255 characters) are one line; longer texts get a text area. */
    static final int TEXTAREA_ABOVE = 255;
    private static final String NOT_IN_FORMS = "none";

    /**
     * One field of the form as the template renders it. {@code idPrefix} keeps ids apart when a page has several
     * forms; {@code search}, on a long choice of records, is where the search box asks for the choices matching what
     * is typed.
     */
    public record Field(String name, String label, String help, String kind, boolean required, Integer maxLength,
            Long minimum, Long maximum, List<Choice> options, String value, boolean checked, String error,
            String idPrefix, String search) {
        public Field(String name, String label, String help, String kind, boolean required, Integer maxLength,
                Long minimum, Long maximum, List<Choice> options, String value, boolean checked, String error) {
            this(name, label, help, kind, required, maxLength, minimum, maximum, options, value, checked, error,
                    "f-", null);
        }

        public String id() {
            return idPrefix + name;
        }

        /** Whether the choice offers its own "nothing" (an empty value), so no "Choose…" is added. */
        public boolean offersNothing() {
            return options.stream().anyMatch(o -> o.value().isEmpty());
        }

        public boolean hasError() {
            return error != null;
        }
    }

    /** What was posted: the JSON object (when it could be built), what was typed (to show again) and the errors. */
    record Parsed(ObjectNode values, Map<String, String> typed, Map<String, String> errors) {
        boolean valid() {
            return errors.isEmpty();
        }
    }

    private final JsonNode schema;
    private final JsonValidation validation;

    SchemaForm(String id, JsonValidation validation, JsonNode schema) {
        if (!"object".equals(schema.path("type").asText()) || !schema.path("properties").isObject()) {
            throw new IllegalArgumentException(id + ": a console form needs an object schema with properties");
        }
        this.schema = schema;
        this.validation = validation;
    }

    private boolean required(String name) {
        for (JsonNode r : schema.path("required")) {
            if (r.asText().equals(name)) {
                return true;
            }
        }
        return false;
    }

    static String kind(JsonNode property) {
        if (property.has("enum")) {
            return "select";
        }
        String type = type(property);
        String input = property.path("x-input").asText("");
        if (type.equals("array") && input.equals("checkboxes")) {
            return "checkboxes";
        }
        if (type.equals("string") && List.of("text", "textarea", "url", "email").contains(input)) {
            return input;
        }
        return switch (type) {
            case "boolean" -> "checkbox";
            case "integer", "number" -> "number";
            case "array" -> "lines";
            // A free-form object (custom fields) has no field a person could fill in: the API takes it, the form not.
            case "object" -> NOT_IN_FORMS;
            default -> switch (property.path("format").asText("")) {
                case "email" -> "email";
                case "uri", "url" -> "url";
                case "date" -> "date";
                default -> property.path("maxLength").asInt(0) > TEXTAREA_ABOVE ? "textarea" : "text";
            };
        };
    }

    /**
     * The property's JSON type; of a nullable one ({@code ["number", "null"]}) the type that is not null, since an
     * empty field already means "no value".
     */
    static String type(JsonNode property) {
        JsonNode type = property.path("type");
        if (type.isArray()) {
            for (JsonNode each : type) {
                if (!each.asText().equals("null")) return each.asText();
            }
            return "";
        }
        return type.asText("");
    }

    /** The label of property {@code name}: its {@code title}, else the name with underscores as spaces. */
    String label(String name) {
        JsonNode property = schema.path("properties").path(name);
        String title = property.path("title").asText("");
        if (!title.isEmpty()) {
            return title;
        }
        String words = name.replace('_', ' ');
        return words.isEmpty() ? name : Character.toUpperCase(words.charAt(0)) + words.substring(1);
    }

    /** The fields, showing {@code typed} values and {@code errors} by property name. */
    List<Field> fields(Map<String, String> typed, Map<String, String> errors) {
        return fields(typed, errors, Map.of(), "f-", null);
    }

    /**
     * The fields, with the records of the moment as the choices of the fields {@code choices} names (a long list
     * searchable at {@code search} plus {@code ?field=}, when given), and ids starting with {@code idPrefix}.
     */
    List<Field> fields(Map<String, String> typed, Map<String, String> errors,
            Map<String, List<dev.lnp.api.pages.FormView.Choice>> choices, String idPrefix, String search) {
        List<Field> fields = new ArrayList<>();
        for (var entry : schema.path("properties").properties()) {
            String name = entry.getKey();
            JsonNode p = entry.getValue();
            String kind = kind(p);
            if (kind.equals(NOT_IN_FORMS)) {
                continue;
            }
            String value = typed.getOrDefault(name, "");
            List<Choice> options = new ArrayList<>();
            if (kind.equals("select") || kind.equals("checkboxes")) {
                JsonNode values = kind.equals("select") ? p.path("enum") : p.path("items").path("enum");
                JsonNode labels = p.path("x-enum-labels");
                List<String> chosen = kind.equals("select") ? List.of(value) : List.of(value.split("\n"));
                for (JsonNode option : values) {
                    if (!option.isNull()) {
                        options.add(new Choice(option.asText(), labels.path(option.asText()).asText(option.asText()),
                                chosen.contains(option.asText())));
                    }
                }
            }
            Integer maxLength = p.has("maxLength") ? p.get("maxLength").asInt() : null;
            Long minimum = p.has("minimum") ? p.get("minimum").asLong() : null;
            Long maximum = p.has("maximum") ? p.get("maximum").asLong() : null;
            String help = p.path("description").asText(null);
            if (kind.equals("lines")) {
                help = (help == null ? "" : help + " ") + "One value a line.";
            }
            String searchHref = null;
            String label = label(name);
            if (choices.containsKey(name) && !kind.equals("checkboxes")) {
                kind = "select";
                // A person chooses the record itself, not its id: "company_id" untitled reads "Company".
                if (label.endsWith(" id")) label = label.substring(0, label.length() - 3);
                options = recordChoices(choices.get(name), value);
                if (search != null && choices.get(name).size() > dev.lnp.api.pages.FormView.SEARCH_ABOVE) {
                    searchHref = search + (search.contains("?") ? "&" : "?") + "field="
                            + java.net.URLEncoder.encode(name, java.nio.charset.StandardCharsets.UTF_8);
                }
            }
            fields.add(new Field(name, label, help, kind, required(name) && !kind.equals("checkbox"), maxLength,
                    minimum, maximum, options, value, kind.equals("checkbox") && "on".equals(value),
                    errors.get(name), idPrefix, searchHref));
        }
        return fields;
    }

    /**
     * The records to choose from, the one chosen marked; a value that is none of them (typed into an old bookmark,
     * refused by the action) stays chosen as itself, so the form shows what was sent next to why it was refused.
     */
    static List<Choice> recordChoices(List<dev.lnp.api.pages.FormView.Choice> records, String value) {
        List<Choice> options = new ArrayList<>();
        boolean found = false;
        for (var record : records) {
            boolean chosen = record.value().equals(value);
            found |= chosen;
            options.add(new Choice(record.value(), record.label(), chosen));
        }
        if (!found && value != null && !value.isEmpty()) {
            options.add(new Choice(value, value + " (not one of the choices)", true));
        }
        return options;
    }

    /** What a new form shows before anything is typed: each property's schema {@code default}, if it has one. */
    Map<String, String> defaults() {
        ObjectNode defaults = Json.object();
        for (var entry : schema.path("properties").properties()) {
            if (entry.getValue().has("default")) {
                defaults.set(entry.getKey(), entry.getValue().get("default"));
            }
        }
        return typedFrom(defaults);
    }

    /** What a row's JSON shows in the form (for the edit form): text per property, "on" for a true boolean. */
    Map<String, String> typedFrom(JsonNode row) {
        Map<String, String> typed = new LinkedHashMap<>();
        for (var entry : schema.path("properties").properties()) {
            JsonNode value = row.path(entry.getKey());
            if (value.isMissingNode() || value.isNull()) {
                continue;
            }
            switch (kind(entry.getValue())) {
                case "checkbox" -> typed.put(entry.getKey(), value.asBoolean() ? "on" : "");
                case "lines", "checkboxes" -> {
                    List<String> lines = new ArrayList<>();
                    value.forEach(v -> lines.add(v.asText()));
                    typed.put(entry.getKey(), String.join("\n", lines));
                }
                default -> typed.put(entry.getKey(), value.asText());
            }
        }
        return typed;
    }

    /** Reads the posted values ({@code form} gives a field's first value or null) and checks them. */
    Parsed parse(Function<String, String> form) {
        return parse(form, name -> {
            String value = form.apply(name);
            return value == null ? List.of() : List.of(value);
        });
    }

    /**
     * Reads the posted values and checks them; {@code all} gives every value of a field posted several times (a
     * group of checkboxes, the rows ticked in a list).
     */
    Parsed parse(Function<String, String> form, Function<String, List<String>> all) {
        ObjectNode values = Json.object();
        Map<String, String> typed = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        for (var entry : schema.path("properties").properties()) {
            String name = entry.getKey();
            JsonNode p = entry.getValue();
            String raw = form.apply(name);
            String kind = kind(p);
            if (kind.equals(NOT_IN_FORMS)) {
                continue;
            }
            if (kind.equals("checkboxes")) {
                ArrayNode items = values.arrayNode();
                all.apply(name).stream().map(String::strip).filter(v -> !v.isEmpty()).forEach(items::add);
                List<String> lines = new ArrayList<>();
                items.forEach(v -> lines.add(v.asText()));
                typed.put(name, String.join("\n", lines));
                // Nothing ticked is an empty list where the form asks for one, else no change at all.
                if (!items.isEmpty() || required(name)) {
                    values.set(name, items);
                }
                continue;
            }
            if (kind.equals("checkbox")) {
                boolean on = raw != null && (raw.equals("on") || raw.equals("true"));
                typed.put(name, on ? "on" : "");
                values.put(name, on);
                continue;
            }
            String text = raw == null ? "" : raw.replace("\r\n", "\n");
            typed.put(name, text);
            String stripped = text.strip();
            switch (kind) {
                case "number" -> {
                    if (stripped.isEmpty()) {
                        emptied(values, name, p, raw, required(name));
                        continue;
                    }
                    try {
                        if (type(p).equals("integer")) {
                            values.put(name, Long.parseLong(stripped));
                        } else {
                            values.put(name, new java.math.BigDecimal(stripped));
                        }
                    } catch (NumberFormatException e) {
                        errors.put(name, type(p).equals("integer") ? "Enter a whole number."
                                : "Enter a number.");
                    }
                }
                case "lines" -> {
                    ArrayNode items = values.arrayNode();
                    for (String line : text.split("\n")) {
                        if (!line.strip().isEmpty()) {
                            items.add(line.strip());
                        }
                    }
                    // Posted empty, the list is emptied (an edit form clears it); absent from the form, it is left alone.
                    if (!items.isEmpty() || required(name) || (raw != null && p.path("minItems").asInt(0) == 0)) {
                        values.set(name, items);
                    }
                }
                case "textarea" -> {
                    if (!stripped.isEmpty()) {
                        values.put(name, text.strip());
                    } else {
                        emptied(values, name, p, raw, required(name));
                    }
                }
                default -> {
                    if (!stripped.isEmpty()) {
                        values.put(name, stripped);
                    } else {
                        emptied(values, name, p, raw, required(name));
                    }
                }
            }
        }
        // Checked even when a number could not be read, so that every field's error shows at once.
        for (FieldError error : validation.validate(schema, values)) {
            String field = fieldOf(error.pointer());
            errors.putIfAbsent(field, describe(field, error));
        }
        return new Parsed(values, typed, errors);
    }

    /**
     * A field posted empty means "no value": {@code null} where the schema takes it (a nullable field, so an edit
     * form can clear it); otherwise the field is left out, as a create form means it. A field that was not posted
     * at all is always left alone.
     */
    private static void emptied(ObjectNode values, String name, JsonNode property, String raw, boolean required) {
        if (raw == null || required) {
            return;
        }
        JsonNode type = property.path("type");
        if (type.isArray() && java.util.stream.StreamSupport.stream(type.spliterator(), false)
                .anyMatch(t -> t.asText().equals("null"))) {
            values.putNull(name);
        }
    }

    /** The property a JSON pointer names ({@code /tags/2} is {@code tags}); empty for the whole object. */
    static String fieldOf(String pointer) {
        if (pointer == null || pointer.length() < 2 || pointer.charAt(0) != '/') {
            return "";
        }
        int next = pointer.indexOf('/', 1);
        String first = next < 0 ? pointer.substring(1) : pointer.substring(1, next);
        return first.replace("~1", "/").replace("~0", "~");
    }

    /** A broken rule in words for a person. */
    String describe(String field, FieldError error) {
        JsonNode p = schema.path("properties").path(field);
        String at = error.pointer().indexOf('/', 1) > 0 ? " (line " + lineOf(error.pointer()) + ")" : "";
        return switch (error.rule()) {
            case "required" -> "Fill in " + label(field) + ".";
            case "maxLength" -> p.has("items")
                    ? "Each line may have at most " + p.path("items").path("maxLength").asInt() + " characters" + at + "."
                    : "Write at most " + p.path("maxLength").asInt() + " characters.";
            case "minLength" -> p.has("items")
                    ? "Each line needs at least " + p.path("items").path("minLength").asInt() + " characters" + at + "."
                    : "Write at least " + p.path("minLength").asInt() + " characters.";
            case "enum" -> "Choose one of the options.";
            case "format" -> switch ((p.has("items") ? p.path("items") : p).path("format").asText()) {
                case "email" -> "Enter an e-mail address, for example ada@example.com" + at + ".";
                case "uri", "url" -> "Enter a full address starting with https://" + at + ".";
                case "uuid" -> "Enter an id like 3f2b8c1e-0000-4000-8000-000000000000" + at + ".";
                default -> "Use the format " + p.path("format").asText() + at + ".";
            };
            case "minimum" -> "Enter " + p.path("minimum").asText() + " or more.";
            case "maximum" -> "Enter " + p.path("maximum").asText() + " or less.";
            case "maxItems" -> kind(p).equals("checkboxes") ? "Choose at most " + p.path("maxItems").asInt() + "."
                    : "Give at most " + p.path("maxItems").asInt() + " lines.";
            case "minItems" -> kind(p).equals("checkboxes") ? "Choose at least " + p.path("minItems").asInt() + "."
                    : "Give at least " + p.path("minItems").asInt() + " lines.";
            case "uniqueItems" -> "Give each line once.";
            case "pattern" -> {
                JsonNode hint = (p.has("items") ? p.path("items") : p).path("x-pattern-hint");
                yield hint.isTextual() ? hint.asText() + at + "." : "This value is not allowed here" + at + ".";
            }
            default -> Character.toUpperCase(error.message().charAt(0)) + error.message().substring(1) + ".";
        };
    }

    private static String lineOf(String pointer) {
        String tail = pointer.substring(pointer.indexOf('/', 1) + 1);
        try {
            return String.valueOf(Integer.parseInt(tail.split("/")[0]) + 1);
        } catch (NumberFormatException e) {
            return tail;
        }
    }
}
