package com.example.notes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The platform with this plugin, on a real PostgreSQL (a fresh database for the class), over HTTP. */
@PlatformTest(plugins = "notes")
class NotesPluginTest {

    @Test
    void createsAndListsItemsPerWorkspace(TestPlatform platform) {
        UUID ws = platform.createWorkspace("notes");
        UUID other = platform.createWorkspace("other");
        String key = platform.key(ws, "notes.read", "notes.write");
        var created = platform.post("/api/v1/notes/items", key, "{\"text\":\"Call Ada\"}");
        assertEquals(201, created.status(), created.body());
        assertEquals("Call Ada", created.data().path("text").asText());

        assertEquals(1, platform.get("/api/v1/notes/items", key).json().path("pagination").path("total").asInt());
        var theirs = platform.get("/api/v1/notes/items", platform.key(other, "notes.read"));
        assertEquals(0, theirs.json().path("pagination").path("total").asInt(), theirs.body());
    }

    @Test
    void theToolSharesTheRoutesData(TestPlatform platform) {
        UUID ws = platform.createWorkspace("tool");
        String key = platform.key(ws, "notes.read", "notes.write");
        platform.callTool(key, "notes_create_item", "{\"text\":\"From a tool\"}");
        var listed = platform.get("/api/v1/notes/items", key);
        assertEquals("From a tool", listed.json().path("data").path(0).path("text").asText(), listed.body());
    }

    @Test
    void refusesBadInputAndAMissingScope(TestPlatform platform) {
        UUID ws = platform.createWorkspace("bad");
        var invalid = platform.post("/api/v1/notes/items", platform.key(ws, "notes.write"), "{\"text\":\"\"}");
        assertEquals(422, invalid.status(), invalid.body());
        assertEquals(403, platform.post("/api/v1/notes/items", platform.key(ws, "notes.read"),
                "{\"text\":\"x\"}").status());
    }

    @Test
    void staffListOpenAndEditItemsInTheApplication(TestPlatform platform) {
        UUID ws = platform.createWorkspace("pages");
        String key = platform.key(ws, "notes.read", "notes.write");
        String id = platform.post("/api/v1/notes/items", key, "{\"text\":\"Call Ada\"}").data().path("id").asText();
        TestPerson member = platform.person(ws, "member");

        var list = member.get("/app/notes/items");
        assertEquals(200, list.status(), list.body());
        assertTrue(list.body().contains(">Call Ada</a>"), list.body());
        assertTrue(member.get("/app/notes/items/" + id).body().contains("<h1>Call Ada</h1>"));

        var empty = member.post("/app/notes/items/" + id + "/edit", "text", "");
        assertEquals(400, empty.status(), "the API's own schema checks the form");
        var saved = member.post("/app/notes/items/" + id + "/edit", "text", "Call Ada back");
        assertEquals(303, saved.status(), saved.body());
        assertTrue(member.get(saved.location()).body().contains("Item saved."));
        assertEquals("Call Ada back", platform.get("/api/v1/notes/items/" + id, key).data().path("text").asText());

        var found = member.get("/app/search?q=ada%20BACK");
        assertTrue(found.body().contains("<a href=\"/app/notes/items/" + id + "\" data-kind=\"Notes\">Call Ada back</a>"),
                "the search box finds the item: " + found.body());

        UUID other = platform.createWorkspace("other");
        assertEquals(404, platform.person(other, "member").get("/app/notes/items/" + id).status(),
                "another workspace's item is not there");
        assertTrue(platform.person(other, "member").get("/app/search?q=ada").body().contains("Nothing found"),
                "nor found by another workspace's search");
    }

    @Test
    void writesStopAtTheWorkspacesMonthlyQuota(TestPlatform platform) {
        UUID ws = platform.createWorkspace("quota");
        platform.setQuota(ws, NotesScopes.QUOTA, 1);
        String key = platform.key(ws, "notes.write");
        assertEquals(201, platform.post("/api/v1/notes/items", key, "{\"text\":\"one\"}").status());
        var over = platform.post("/api/v1/notes/items", key, "{\"text\":\"two\"}");
        assertEquals(429, over.status(), over.body());
        assertEquals("quota_exceeded", over.json().path("code").asText());
    }
}
