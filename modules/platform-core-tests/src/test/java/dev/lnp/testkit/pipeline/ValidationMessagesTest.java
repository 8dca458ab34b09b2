package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.api.Json;
import dev.lnp.api.http.FieldError;
import dev.lnp.json.validation.BodyValidator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The words of validation messages, which every route and MCP tool shares: fields named as a reader writes them. */
class ValidationMessagesTest {

    private static List<FieldError> validate(String schema, String body) throws Exception {
        return BodyValidator.compile("messages-test", Json.mapper().readTree(schema))
                .validate(Json.mapper().readTree(body));
    }

    @Test
    void arrayElementsAreNamedByTheirArrayAndIndex() throws Exception {
        String schema = """
                {"type":"object","properties":{
                  "tags":{"type":"array","items":{"type":"string","maxLength":3}},
                  "lines":{"type":"array","items":{"type":"object","properties":{"qty":{"type":"integer","minimum":1}}}},
                  "grid":{"type":"array","items":{"type":"array","items":{"type":"integer"}}}}}""";
        FieldError tag = validate(schema, "{\"tags\":[\"abcd\"]}").get(0);
        assertEquals("/tags/0", tag.pointer());
        assertEquals("tags[0] must be at most 3 characters long", tag.message());
        FieldError qty = validate(schema, "{\"lines\":[{\"qty\":1},{\"qty\":0}]}").get(0);
        assertEquals("/lines/1/qty", qty.pointer());
        assertEquals("qty must have a minimum value of 1", qty.message());
        FieldError cell = validate(schema, "{\"grid\":[[1],[2,\"x\"]]}").get(0);
        assertEquals("grid[1][1] string found, integer expected", cell.message());
    }

    @Test
    void aFractionWhereAWholeNumberBelongsSaysSo() throws Exception {
        FieldError error = validate("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":[\"integer\",\"null\"]}}}",
                "{\"n\":0.5}").get(0);
        assertEquals("/n", error.pointer());
        assertEquals("n must be a whole number", error.message());
    }

    @Test
    void anEmptyPatchSaysTheBodyMustSetAField() throws Exception {
        FieldError rest = validate("{\"type\":\"object\",\"minProperties\":1,\"properties\":{\"a\":{}}}", "{}").get(0);
        assertEquals("", rest.pointer());
        assertEquals("the body must set at least one field", rest.message());
        // An MCP update tool: the id is required, and the change is one more field.
        FieldError tool = validate("""
                {"type":"object","required":["id"],"minProperties":2,"properties":{"id":{},"a":{}}}""",
                "{\"id\":\"x\"}").get(0);
        assertEquals("the body must set at least one field besides id", tool.message());
    }
}
