package dev.lnp.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnumLabelsTest {

    private static final JsonNode SCHEMA = Json.parse("""
            {"type": "object", "properties": {
              "stage": {"type": "string", "enum": ["discovery", "closed_won"],
                        "x-enum-labels": {"discovery": "Discovery", "closed_won": "Closed won"}},
              "kind": {"type": "string", "enum": ["a", "b"], "x-enum-labels": {"a": "First"}},
              "tags": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}, "x-enum-labels": {"y": "Why"}},
              "title": {"type": "string"}}}
            """);

    @Test
    void aValueReadsAsItsDeclaredWordsAndAnUndeclaredOneAsItself() {
        assertEquals("Closed won", EnumLabels.of(SCHEMA, "stage", "closed_won"));
        assertEquals("b", EnumLabels.of(SCHEMA, "kind", "b"));
        assertEquals("anything", EnumLabels.of(SCHEMA, "title", "anything"));
        assertEquals(null, EnumLabels.of(SCHEMA, "stage", null));
    }

    @Test
    void theChoicesFollowTheEnumOrEachItemsEnum() {
        assertEquals(List.of(new Filter.Choice("discovery", "Discovery"), new Filter.Choice("closed_won", "Closed won")),
                EnumLabels.choices(SCHEMA, "stage"));
        assertEquals(List.of(new Filter.Choice("x", "x"), new Filter.Choice("y", "Why")), EnumLabels.choices(SCHEMA, "tags"));
    }

    @Test
    void aRowKeepsItsValuesAndGainsALabelBesideEachDeclaredOne() {
        ObjectNode row = (ObjectNode) Json.parse("{\"stage\": \"closed_won\", \"title\": \"Deal\", \"kind\": null}");
        assertEquals(Json.parse("{\"stage\": \"closed_won\", \"title\": \"Deal\", \"kind\": null, \"stage_label\": \"Closed won\"}"),
                EnumLabels.labelled(row, SCHEMA));
        assertEquals("closed_won", row.get("stage").asText());
    }

    @Test
    void theValuesLeftWithoutWordsAreNamed() {
        assertEquals(List.of(), EnumLabels.unlabelled(SCHEMA, "stage"));
        assertEquals(List.of("b"), EnumLabels.unlabelled(SCHEMA, "kind"));
    }
}
