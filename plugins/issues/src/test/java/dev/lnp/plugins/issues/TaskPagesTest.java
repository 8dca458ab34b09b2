package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The task pages of the workspace application, over HTTP as a signed-in member. */
@PlatformTest(plugins = {"projects", "issues"})
class TaskPagesTest {

    @Test
    void tasksAreListedFilteredAndMovedOnTheBoardByTheApisRules(TestPlatform platform) {
        UUID ws = platform.createWorkspace("tasks-pages");
        String key = platform.key(ws, "issues.read", "issues.write");
        String write = platform.post("/api/v1/issues", key, "{\"kind\":\"task\",\"title\":\"Write the manual\",\"priority\":\"high\"}")
                .data().path("id").asText();
        platform.post("/api/v1/issues", key, "{\"kind\":\"task\",\"title\":\"Print the manual\",\"status\":\"todo\"}");
        platform.post("/api/v1/issues", key, "{\"kind\":\"task\",\"title\":\"Index chapter\",\"parent_id\":\"" + write + "\"}");
        platform.post("/api/v1/issues/" + write + "/comments", key, "{\"body\":\"Start with the install guide\"}");
        TestPerson member = platform.person(ws, "member");

        String all = member.get("/app/projects/tasks").body();
        assertTrue(all.contains(">Write the manual</a>") && all.contains(">Print the manual</a>"), all);
        String todo = member.get("/app/projects/tasks?status=todo").body();
        assertTrue(todo.contains("Print the manual") && !todo.contains("Write the manual"), todo);
        String byTitle = member.get("/app/projects/tasks?sort=title").body();
        assertTrue(byTitle.indexOf("Index chapter") < byTitle.indexOf("Print the manual"));

        String board = member.get("/app/projects/board").body();
        assertTrue(board.contains("2 tasks") && board.contains("1 task"), "each lane counts its tasks: " + board);
        var moved = member.post("/app/projects/tasks/" + write + "/move", "status", "in_progress");
        assertEquals(303, moved.status(), moved.body());
        assertTrue(member.get(moved.location()).body().contains("Task Write the manual moved to In progress."));
        assertEquals("in_progress", platform.get("/api/v1/issues/" + write, key).data().path("status").asText());
        assertEquals(400, member.post("/app/projects/tasks/" + write + "/move", "status", "solved").status(),
                "a ticket's status is not a task's");

        String page = member.get("/app/projects/tasks/" + write).body();
        assertTrue(page.contains("<h1>Write the manual</h1>"), page);
        assertTrue(page.contains(">Index chapter</a>"), "its sub-tasks");
        assertTrue(page.contains("Start with the install guide"), "its comments");

        var created = member.post("/app/projects/tasks/new", "title", "Bind the manual", "status", "todo");
        assertEquals(303, created.status(), created.body());
        assertTrue(member.get(created.location()).body().contains("Task Bind the manual created."));
        assertEquals(400, member.post("/app/projects/tasks/new", "title", "").status(), "a title is required");
        assertEquals(404, platform.person(platform.createWorkspace("other"), "member")
                .get("/app/projects/tasks/" + write).status(), "another workspace's task is not there");
    }
}
