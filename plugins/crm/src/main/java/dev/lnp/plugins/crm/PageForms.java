package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.pages.DetailView.Field;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/** What the CRM's forms and record pages share: the values of a form, its changes, a record's fields as text. */
final class PageForms {

    private PageForms() {
    }

    /** The record's values of the fields the form has, so the form starts from what is stored. */
    static ObjectNode editable(ObjectNode record, JsonNode formSchema) {
        ObjectNode values = Json.object();
        formSchema.path("properties").fieldNames().forEachRemaining(name -> {
            JsonNode value = record.get(name);
            if (value != null && !value.isNull()) values.set(name, value);
        });
        return values;
    }

    /**
     * Only what the person changed: an edit form posts every field, and sending the unchanged ones too would make
     * the change say more than was meant (a deal's stage moved to won, with the old status "open" beside it, is a
     * contradiction the API refuses). A text the person emptied is left out of the posted values (the form cannot
     * tell an empty text from none); where the record has one, it is cleared with an empty text.
     */
    static ObjectNode changes(ObjectNode record, ObjectNode posted, JsonNode formSchema) {
        ObjectNode changes = Json.object();
        posted.properties().forEach(entry -> {
            if (!same(record.get(entry.getKey()), entry.getValue())) changes.set(entry.getKey(), entry.getValue());
        });
        formSchema.path("properties").properties().forEach(entry -> {
            String name = entry.getKey();
            boolean plainText = "string".equals(entry.getValue().path("type").asText())
                    && !entry.getValue().has("enum") && !entry.getValue().has("format")
                    && entry.getValue().path("minLength").asInt(0) == 0;
            if (!posted.has(name) && plainText && !empty(record.get(name))) changes.put(name, "");
        });
        return changes;
    }

    private static boolean same(JsonNode stored, JsonNode posted) {
        boolean storedEmpty = empty(stored);
        boolean postedEmpty = empty(posted);
        if (storedEmpty || postedEmpty) return storedEmpty == postedEmpty;
        if (stored.isNumber() && posted.isNumber()) {
            return stored.decimalValue().compareTo(posted.decimalValue()) == 0;
        }
        if (stored.isNumber() && posted.isTextual()) {
            try {
                return stored.decimalValue().compareTo(new BigDecimal(posted.asText())) == 0;
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return stored.equals(posted);
    }

    private static boolean empty(JsonNode value) {
        return value == null || value.isNull() || (value.isTextual() && value.asText().isEmpty())
                || (value.isArray() && value.isEmpty());
    }

    /** The record's fields that have a value, labelled as people read them, in the schema's order. */
    static List<Field> fields(ObjectNode record, JsonNode schema) {
        return fields(record, schema, java.util.Map.of());
    }

    /** The record's fields, with {@code instead} shown for the properties it names (a company by its name). */
    static List<Field> fields(ObjectNode record, JsonNode schema, java.util.Map<String, Field> instead) {
        List<Field> fields = new ArrayList<>();
        schema.path("properties").fieldNames().forEachRemaining(name -> {
            String text = text(record.get(name));
            if (text != null && !text.isEmpty() && !name.equals("custom_fields")) {
                fields.add(instead.getOrDefault(name, new Field(ContactPages.label(name), text)));
            }
        });
        fields.add(new Field("Created", record.path("created_at").asText()));
        fields.add(new Field("Updated", record.path("updated_at").asText()));
        return fields;
    }

    static String text(JsonNode value) {
        if (value == null || value.isNull()) return null;
        if (value.isArray()) {
            List<String> items = new ArrayList<>();
            value.forEach(item -> items.add(item.asText()));
            return items.isEmpty() ? null : String.join(", ", items);
        }
        return value.isValueNode() ? value.asText() : value.toString();
    }
}
