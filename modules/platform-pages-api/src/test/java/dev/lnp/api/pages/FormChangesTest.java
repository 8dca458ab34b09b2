package dev.lnp.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import org.junit.jupiter.api.Test;

class FormChangesTest {

    private static final ObjectNode SCHEMA = (ObjectNode) Json.parse("""
            {"type": "object", "properties": {
              "title": {"type": "string", "minLength": 1},
              "notes": {"type": "string"},
              "due": {"type": ["string", "null"], "format": "date"},
              "status": {"type": "string", "enum": ["open", "won"]},
              "value": {"type": "number"},
              "labels": {"type": "array", "items": {"type": "string"}}}}
            """);

    private static final ObjectNode STORED = (ObjectNode) Json.parse("""
            {"id": "x", "title": "Deal", "notes": "call back", "due": "2026-12-01", "status": "open",
             "value": 1200.50, "labels": ["a"], "created_at": "2026-11-01T00:00:00Z"}
            """);

    @Test
    void theFormStartsFromTheStoredValuesOfItsFieldsOnly() {
        assertEquals(Json.parse("""
                {"title": "Deal", "notes": "call back", "due": "2026-12-01", "status": "open", "value": 1200.50,
                 "labels": ["a"]}"""), FormChanges.editable(STORED, SCHEMA));
    }

    @Test
    void onlyWhatDiffersIsSentAndNumbersCompareByValue() {
        ObjectNode posted = (ObjectNode) Json.parse("""
                {"title": "Deal", "notes": "call back", "due": "2026-12-01", "status": "won", "value": "1200.5",
                 "labels": ["a"]}""");
        assertEquals(Json.parse("{\"status\": \"won\"}"), FormChanges.changes(STORED, posted, SCHEMA));
    }

    @Test
    void anEmptiedFieldIsClearedAsItsSchemaAllows() {
        ObjectNode posted = (ObjectNode) Json.parse("{\"title\": \"Deal\", \"value\": 1200.5, \"labels\": [\"a\"]}");
        // notes: a plain text, cleared with ""; due: nullable, cleared with null; status (an enum) cannot be
        // emptied, so nothing is sent for it.
        assertEquals(Json.parse("{\"notes\": \"\", \"due\": null}"), FormChanges.changes(STORED, posted, SCHEMA));
    }

    @Test
    void aValueTheRecordLacksIsSentWhenGiven() {
        ObjectNode bare = (ObjectNode) Json.parse("{\"title\": \"Deal\", \"labels\": []}");
        ObjectNode posted = (ObjectNode) Json.parse("{\"title\": \"Deal\", \"notes\": \"new\", \"labels\": []}");
        assertEquals(Json.parse("{\"notes\": \"new\"}"), FormChanges.changes(bare, posted, SCHEMA));
    }
}
