package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@PlatformTest(plugins = {"projects", "issues"})
class CommentsAndLabelsTest {

    private static Fixtures f;

    @BeforeAll
    static void setUp(TestPlatform platform) {
        f = Fixtures.workspace(platform, "comments");
    }

    @Test
    void commentsWorkOnTasksAndTickets(TestPlatform platform) {
        for (UUID issue : List.of(f.task("task"), f.ticket("ticket"))) {
            String path = "/api/v1/issues/" + issue + "/comments";
            var first = platform.post(path, f.key(), "{\"body\": \"first\"}");
            assertEquals(201, first.status(), first.body());
            JsonNode comment = first.data();
            assertEquals(issue.toString(), comment.path("issue_id").asText());
            assertEquals(f.get(issue).path("kind").asText(), comment.path("issue_kind").asText());
            assertEquals(platform.principal(f.key()).actorId().toString(), comment.path("author_id").asText());
            assertEquals("connection", comment.path("author_type").asText());
            assertTrue(comment.hasNonNull("created_at"));
            platform.post(path, f.key(), "{\"body\": \"second\"}");

            var page = platform.get(path + "?limit=1&page=2", f.key());
            assertEquals(200, page.status(), page.body());
            assertEquals(2, page.json().path("pagination").path("total").asInt());
            assertEquals("second", page.data().get(0).path("body").asText());
        }
    }

    @Test
    void commentBodiesAreChecked(TestPlatform platform) {
        String path = "/api/v1/issues/" + f.task("t") + "/comments";
        assertEquals("/body", Fixtures.pointer(platform.post(path, f.key(), "{}")));
        assertEquals("/body", Fixtures.pointer(platform.post(path, f.key(), "{\"body\": \"\"}")));
        assertEquals("/body", Fixtures.pointer(platform.post(path, f.key(), "{\"body\": \"" + "x".repeat(20001) + "\"}")));
        assertEquals("/author_id", Fixtures.pointer(platform.post(path, f.key(),
                "{\"body\": \"b\", \"author_id\": \"" + UUID.randomUUID() + "\"}")));
        assertEquals(201, platform.post(path, f.key(), "{\"body\": \"" + "x".repeat(20000) + "\"}").status());
        assertEquals(404, platform.post("/api/v1/issues/" + UUID.randomUUID() + "/comments", f.key(), "{\"body\": \"b\"}").status());
    }

    @Test
    void labelsAreCreatedAndListedUnderTheLiteralRoute(TestPlatform platform) {
        Fixtures g = Fixtures.workspace(platform, "labels");
        var created = platform.post("/api/v1/issues/labels", g.key(), "{\"name\": \"Bug\", \"color\": \"#FF0000\"}");
        assertEquals(201, created.status(), created.body());
        assertEquals("Bug", created.data().path("name").asText());
        assertEquals("#FF0000", created.data().path("color").asText());

        // GET /api/v1/issues/labels reaches the label list, not GET /api/v1/issues/{id}.
        var list = platform.get("/api/v1/issues/labels", g.key());
        assertEquals(200, list.status(), list.body());
        assertEquals(1, list.json().path("pagination").path("total").asInt());
        assertEquals("Bug", list.data().get(0).path("name").asText());

        var duplicate = platform.post("/api/v1/issues/labels", g.key(), "{\"name\": \"bug\"}");
        assertEquals(409, duplicate.status(), duplicate.body());
        assertEquals("label_exists", duplicate.json().path("code").asText());
        // Another workspace may use the same name.
        assertEquals(201, platform.post("/api/v1/issues/labels", f.key(), "{\"name\": \"Bug\"}").status());
    }

    @Test
    void labelBodiesAreChecked(TestPlatform platform) {
        String path = "/api/v1/issues/labels";
        assertEquals("/name", Fixtures.pointer(platform.post(path, f.key(), "{}")));
        assertEquals("/name", Fixtures.pointer(platform.post(path, f.key(), "{\"name\": \"" + "n".repeat(101) + "\"}")));
        assertEquals("/color", Fixtures.pointer(platform.post(path, f.key(), "{\"name\": \"a\", \"color\": \"red\"}")));
        assertEquals("/color", Fixtures.pointer(platform.post(path, f.key(), "{\"name\": \"a\", \"color\": \"#FFF\"}")));
        assertEquals("/description", Fixtures.pointer(platform.post(path, f.key(), "{\"name\": \"a\", \"description\": \"d\"}")));
    }
}
