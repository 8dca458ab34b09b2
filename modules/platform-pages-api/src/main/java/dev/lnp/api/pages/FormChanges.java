package dev.lnp.api.pages;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;

/**
 * An edit form over a stored record: the values it starts from, and the change a posted form makes. An edit form
 * posts every field, and sending the unchanged ones too would make the change say more than was meant (a deal's
 * stage moved to won with the old status "open" beside it is a contradiction the API refuses; a percentage sent back
 * unchanged would switch an allocation counted in hours to percent), so only what differs is sent. Built on
 * Jackson alone: the API's root package uses the page API, so the page API does not use it back.
 */
public final class FormChanges {

    private FormChanges() {
    }

    /** The record's values of the fields {@code formSchema} has, so the form starts from what is stored. */
    public static ObjectNode editable(ObjectNode record, JsonNode formSchema) {
        ObjectNode values = JsonNodeFactory.instance.objectNode();
        formSchema.path("properties").fieldNames().forEachRemaining(name -> {
            JsonNode value = record.get(name);
            if (value != null && !value.isNull()) values.set(name, value);
        });
        return values;
    }

    /**
     * What {@code posted} changes in {@code record}. A field the person emptied is absent from the posted values (a
     * form cannot tell an empty text from none); where the record has a value, it is cleared: with {@code null} when
     * the schema allows null, with an empty text for a plain text (no enum, format or minimum length).
     */
    public static ObjectNode changes(ObjectNode record, ObjectNode posted, JsonNode formSchema) {
        ObjectNode changes = JsonNodeFactory.instance.objectNode();
        posted.properties().forEach(entry -> {
            if (!same(record.get(entry.getKey()), entry.getValue())) changes.set(entry.getKey(), entry.getValue());
        });
        formSchema.path("properties").properties().forEach(entry -> {
            String name = entry.getKey();
            if (posted.has(name) || empty(record.get(name))) return;
            if (nullable(entry.getValue())) {
                changes.putNull(name);
            } else if (plainText(entry.getValue())) {
                changes.put(name, "");
            }
        });
        return changes;
    }

    private static boolean nullable(JsonNode property) {
        for (JsonNode type : property.path("type")) {
            if (type.asText().equals("null")) return true;
        }
        return false;
    }

    private static boolean plainText(JsonNode property) {
        return "string".equals(property.path("type").asText()) && !property.has("enum") && !property.has("format")
                && property.path("minLength").asInt(0) == 0;
    }

    private static boolean same(JsonNode stored, JsonNode posted) {
        boolean storedEmpty = empty(stored);
        boolean postedEmpty = empty(posted);
        if (storedEmpty || postedEmpty) return storedEmpty == postedEmpty;
        if (stored.isNumber() && (posted.isNumber() || posted.isTextual())) {
            try {
                return stored.decimalValue().compareTo(new BigDecimal(posted.asText())) == 0;
            } catch (NumberFormatException e) {
                return false;
            }
        }
        if (stored.isValueNode() && posted.isValueNode()) return stored.asText().equals(posted.asText());
        return stored.equals(posted);
    }

    private static boolean empty(JsonNode value) {
        return value == null || value.isNull() || (value.isTextual() && value.asText().isEmpty())
                || (value.isArray() && value.isEmpty());
    }
}
