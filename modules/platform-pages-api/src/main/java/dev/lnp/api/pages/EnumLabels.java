package dev.lnp.api.pages;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The words people read for a schema's coded values ({@code closed_won} as "Closed won"), declared once beside the
 * {@code enum} as {@code "x-enum-labels": {"closed_won": "Closed won"}}: the same declaration {@link FormView}'s
 * choices show, read here for everything else a page shows (a record's fields, a list's cells, a filter's choices,
 * a board's lanes). The values themselves stay in URLs, forms and the API.
 */
public final class EnumLabels {

    /** The key of the annotation, on a property of type {@code string} or on an array of them. */
    public static final String KEYWORD = "x-enum-labels";

    private EnumLabels() {
    }

    /** The label of {@code value} of {@code schema}'s property {@code field}: its declared words, else the value. */
    public static String of(JsonNode schema, String field, String value) {
        if (value == null) return null;
        return schema.path("properties").path(field).path(KEYWORD).path(value).asText(value);
    }

    /** Every value of the property's {@code enum} (or its items'), with its label, in the schema's order. */
    public static List<Filter.Choice> choices(JsonNode schema, String field) {
        JsonNode property = schema.path("properties").path(field);
        JsonNode values = property.has("enum") ? property.path("enum") : property.path("items").path("enum");
        List<Filter.Choice> choices = new ArrayList<>();
        for (JsonNode value : values) {
            if (!value.isNull()) choices.add(new Filter.Choice(value.asText(), of(schema, field, value.asText())));
        }
        return choices;
    }

    /**
     * A copy of {@code row} in which each property that declares labels, and has a value, also has its label as
     * {@code <property>_label}: what a {@link Column} shows while sorting and links keep the value.
     */
    public static ObjectNode labelled(ObjectNode row, JsonNode schema) {
        ObjectNode copy = row.deepCopy();
        for (var entry : schema.path("properties").properties()) {
            JsonNode value = row.get(entry.getKey());
            if (entry.getValue().has(KEYWORD) && value != null && value.isTextual()) {
                copy.put(entry.getKey() + "_label", of(schema, entry.getKey(), value.asText()));
            }
        }
        return copy;
    }

    /** The values of the property's {@code enum} (or its items') that have no label: none, when declared in full. */
    public static List<String> unlabelled(JsonNode schema, String field) {
        return choices(schema, field).stream().filter(c -> !declares(schema, field, c.value())).map(Filter.Choice::value).toList();
    }

    private static boolean declares(JsonNode schema, String field, String value) {
        return schema.path("properties").path(field).path(KEYWORD).has(value);
    }
}
