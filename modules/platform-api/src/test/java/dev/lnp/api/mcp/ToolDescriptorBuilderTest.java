package dev.lnp.api.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import org.junit.jupiter.api.Test;

class ToolDescriptorBuilderTest {

    private static final JsonNode INPUT = Json.parse("{\"type\":\"object\"}");
    private static final JsonNode OUTPUT = Json.parse("{\"type\":\"object\",\"properties\":{}}");
    private static final ToolHandler HANDLER = call -> ToolResult.of(Json.object());

    private static ToolDescriptor.Builder complete(String name) {
        return ToolDescriptor.builder(name).title("Create a note").description("Creates a note.").scope("notes.write")
                .inputSchema(INPUT).outputSchema(OUTPUT).annotations(ToolAnnotations.create()).quota("notes");
    }

    @Test
    void namesEveryPartOfTheRecord() {
        ToolDescriptor tool = complete("notes_create").handler(HANDLER);
        assertEquals(new ToolDescriptor("notes_create", "Create a note", "Creates a note.", "notes.write", INPUT, OUTPUT,
                ToolAnnotations.create(), "notes", HANDLER), tool);
        assertSame(HANDLER, tool.handler());
    }

    @Test
    void titleDescriptionAndQuotaAreOptional() {
        ToolDescriptor tool = ToolDescriptor.builder("notes_list").scope("notes.read").inputSchema(INPUT)
                .outputSchema(OUTPUT).annotations(ToolAnnotations.read()).handler(HANDLER);
        assertNull(tool.title());
        assertNull(tool.quota());
    }

    @Test
    void aMissingRequiredPartIsNamed() {
        var noScope = assertThrows(NullPointerException.class, () -> complete("notes_create").scope(null).handler(HANDLER));
        assertEquals("scope of tool notes_create", noScope.getMessage());
        var noOutput = assertThrows(NullPointerException.class,
                () -> complete("notes_create").outputSchema(null).handler(HANDLER));
        assertEquals("outputSchema of tool notes_create", noOutput.getMessage());
        var noHandler = assertThrows(NullPointerException.class, () -> complete("notes_create").handler(null));
        assertEquals("handler of tool notes_create", noHandler.getMessage());
    }

    @Test
    void aToolNameIsLowercaseSnakeCase() {
        var e = assertThrows(IllegalArgumentException.class, () -> complete("Notes-Create").handler(HANDLER));
        assertEquals("Tool name must be lowercase snake_case: Notes-Create", e.getMessage());
    }
}
