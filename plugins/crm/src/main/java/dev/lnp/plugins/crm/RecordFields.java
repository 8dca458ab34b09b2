package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.pages.DetailView.Field;
import dev.lnp.api.pages.EnumLabels;
import java.util.ArrayList;
import java.util.List;

/** What the CRM's record pages share: a record's fields as text, labelled as people read them. */
final class RecordFields {

    private RecordFields() {
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
            // A coded value reads as the words its schema declares for it: "Closed won", not closed_won.
            if (text != null && record.get(name).isTextual()) text = EnumLabels.of(schema, name, text);
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
