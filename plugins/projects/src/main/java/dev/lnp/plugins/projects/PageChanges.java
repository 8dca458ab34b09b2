package dev.lnp.plugins.projects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import java.math.BigDecimal;

/** What the edit forms share: a form starting from the stored record, and the changes a posted form makes to it. */
final class PageChanges {

    private PageChanges() {
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
     * Only what the person changed: an edit form posts every field, and sending the unchanged ones too would check
     * and announce what nobody touched (a percentage sent back unchanged would switch an allocation counted in hours to percent). An emptied text
     * is left out of the posted values (the form cannot tell an empty text from none); where the record has one, it is
     * cleared with null.
     */
    static ObjectNode changes(ObjectNode record, ObjectNode posted, JsonNode formSchema) {
        ObjectNode changes = Json.object();
        posted.properties().forEach(entry -> {
            if (!same(record.get(entry.getKey()), entry.getValue())) changes.set(entry.getKey(), entry.getValue());
        });
        formSchema.path("properties").properties().forEach(entry -> {
            String name = entry.getKey();
            if (!posted.has(name) && nullable(entry.getValue()) && !empty(record.get(name))) changes.putNull(name);
        });
        return changes;
    }

    private static boolean nullable(JsonNode property) {
        for (JsonNode type : property.path("type")) {
            if (type.asText().equals("null")) return true;
        }
        return false;
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
        return stored.asText().equals(posted.asText());
    }

    private static boolean empty(JsonNode value) {
        return value == null || value.isNull() || (value.isTextual() && value.asText().isEmpty());
    }
}
