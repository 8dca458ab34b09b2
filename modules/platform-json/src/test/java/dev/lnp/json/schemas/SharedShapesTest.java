package dev.lnp.json.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Deleted;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.api.Json;
import dev.lnp.api.JsonSchemas;
import dev.lnp.api.http.Listing;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.http.QueryParam;
import dev.lnp.api.mcp.EntityRef;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The page, deletion and list-filter shapes every first-party plugin shares. */
class SharedShapesTest {

    private static final UUID ID = UUID.fromString("0b9a8f57-3f0e-4b8a-9d55-6a8f1f6f6c11");

    @Test
    void aDeletionIsWrittenInOneOrderWithOnlyTheFieldsItHas() throws Exception {
        assertEquals("{\"id\":\"" + ID + "\",\"deleted\":true}", Json.mapper().writeValueAsString(Deleted.of(ID).toJson()));
        OffsetDateTime at = OffsetDateTime.of(2026, 1, 2, 3, 4, 5, 120_000_000, ZoneOffset.UTC);
        String soft = Json.mapper().writeValueAsString(Deleted.soft(ID, at).withKind("task").toJson());
        assertEquals("{\"id\":\"" + ID + "\",\"kind\":\"task\",\"deleted\":true,\"deleted_at\":\"2026-01-02T03:04:05.12Z\"}",
                soft);
        // the same text Jackson writes for the timestamp itself, as the answers did before the shared type
        Map<String, Object> before = new LinkedHashMap<>();
        before.put("id", ID);
        before.put("kind", "task");
        before.put("deleted", true);
        before.put("deleted_at", at);
        assertEquals(Json.mapper().writeValueAsString(before), soft);
    }

    @Test
    void theDeletionSchemaRequiresIdAndDeletedAndNamesItsRule() {
        var schema = JsonSchemas.deleted();
        assertEquals("[\"id\",\"deleted\"]", schema.get("required").toString());
        assertTrue(schema.path("properties").has("deleted_at"));
        assertEquals(java.util.Optional.of("JsonSchemas.deleted()"), Json.sourceOf(schema));
    }

    @Test
    void aListingAnswersRestAndToolsWithTheSameItemsAndPagination() throws Exception {
        ObjectNode row = Json.object().put("id", ID.toString()).put("name", "a");
        Listing<ObjectNode> listing = Listing.of(List.of(row), new PageRequest(1, 1), 3);
        assertEquals(List.of(row), listing.response().data());
        assertEquals(true, listing.response().pagination().hasMore());
        var tool = ToolResult.listed(listing, "contact");
        assertEquals("{\"items\":[{\"id\":\"" + ID + "\",\"name\":\"a\"}],"
                + "\"pagination\":{\"page\":1,\"limit\":1,\"total\":3,\"hasMore\":true}}",
                Json.mapper().writeValueAsString(tool.data()));
        assertEquals(List.of(new EntityRef("contact", ID, "read")), tool.entities());
        assertEquals(List.of(), ToolResult.listed(listing).entities());
        Listing<Map<String, Object>> maps = Listing.of(List.of(Map.of("id", ID)), new PageRequest(1, 50), 1);
        assertEquals(List.of(new EntityRef("project", ID, "read")), ToolResult.listed(maps, "project").entities());
        var noId = Listing.of(List.of(Map.of("name", "x")), new PageRequest(1, 50), 1);
        assertThrows(IllegalArgumentException.class, () -> ToolResult.listed(noId, "project"));
    }

    @Test
    void softDeleteTakesOnlyASchemaQualifiedTableName() {
        for (String table : new String[] {"projects", "projects.projects; DROP TABLE x", "Projects.projects", "a.b.c"}) {
            var error = assertThrows(IllegalArgumentException.class,
                    () -> dev.lnp.api.sql.SoftDelete.mark(null, table, ID, ID), table);
            assertTrue(error.getMessage().contains(table), error.getMessage());
        }
    }

    @Test
    void queryParametersAreReadFromTheListSchemaByOneRule() {
        var schema = Json.parse("""
                {"type": "object", "properties": {
                  "page": {"type": "integer"}, "limit": {"type": "integer"},
                  "kind": {"type": "string", "enum": ["task", "ticket"], "description": "which"},
                  "project_id": {"type": "string", "format": "uuid"},
                  "due": {"type": "string", "format": "date"},
                  "status": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
                  "assignee": {"type": "array", "items": {"type": "string", "format": "uuid"}},
                  "value_min": {"type": "number"}, "open": {"type": "boolean"}, "n": {"type": "integer"},
                  "search": {"type": "string", "maxLength": 5}}}
                """);
        assertEquals(List.of(
                new QueryParam("kind", QueryParam.Type.ENUM, false, List.of("task", "ticket"), "which"),
                new QueryParam("project_id", QueryParam.Type.UUID, false, List.of(), ""),
                new QueryParam("due", QueryParam.Type.DATE, false, List.of(), ""),
                new QueryParam("status", QueryParam.Type.ENUM, true, List.of("a", "b"), ""),
                new QueryParam("assignee", QueryParam.Type.UUID, true, List.of(), ""),
                new QueryParam("value_min", QueryParam.Type.NUMBER, false, List.of(), ""),
                new QueryParam("open", QueryParam.Type.BOOLEAN, false, List.of(), ""),
                new QueryParam("n", QueryParam.Type.INTEGER, false, List.of(), ""),
                new QueryParam("search", QueryParam.Type.STRING, false, List.of(), "")),
                QueryParam.fromSchema(schema));
    }

    @Test
    void aPatchLetsEveryOptionalFieldBeNullOnceWhateverItsTypeWasWritten() {
        ObjectNode create = (ObjectNode) Json.parse("""
                {"type": "object", "required": ["name"], "properties": {
                  "name": {"type": "string"},
                  "hours": {"type": ["object", "null"], "properties": {"monday": {"type": "string"}}},
                  "size": {"type": ["integer"]},
                  "kind": {"type": "string", "enum": ["a", "b"]},
                  "level": {"type": ["string", "null"], "enum": ["x", null]},
                  "anything": {"description": "no type"}}}
                """);
        ObjectNode patch = JsonSchemas.patchOf(create, "Changes", java.util.Set.of("name"));
        assertEquals(Json.parse("{\"type\": \"string\"}"), patch.at("/properties/name"));
        assertEquals(Json.parse("[\"object\", \"null\"]"), patch.at("/properties/hours/type"),
                "already nullable: not [\"\", \"null\"]");
        assertEquals(Json.parse("[\"integer\", \"null\"]"), patch.at("/properties/size/type"));
        assertEquals(Json.parse("[\"a\", \"b\", null]"), patch.at("/properties/kind/enum"));
        assertEquals(Json.parse("[\"x\", null]"), patch.at("/properties/level/enum"));
        assertTrue(patch.at("/properties/anything/type").isMissingNode());
    }
}
