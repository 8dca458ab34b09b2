package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A task's page over HTTP as a signed-in member: edit, comment, sub-tasks, delete, and their refusals. */
@PlatformTest(plugins = {"projects", "issues"})
class TaskEditPagesTest {

    private static final String TASKS = "/app/projects/tasks/";

    @Test
    void anEditSendsOnlyWhatChangedAndARefusedChangeIsShownByItsField(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "task-edit");
        UUID project = f.project("Manual");
        UUID other = f.project("Website");
        UUID otherCycle = f.cycle(other);
        UUID task = f.issue("{\"kind\": \"task\", \"title\": \"Write the manual\", \"description\": \"All chapters\", "
                + "\"project_id\": \"" + project + "\"}");
        TestPerson member = platform.person(f.ws(), "member");

        var edit = member.get(TASKS + task + "/edit");
        assertEquals(200, edit.status(), edit.body());
        String form = edit.body();
        assertTrue(form.contains("value=\"Write the manual\"") && form.contains(">All chapters</textarea>"), form);
        var unchanged = member.post(TASKS + task + "/edit", "title", "Write the manual", "description", "All chapters",
                "status", "backlog", "priority", "none", "project_id", project.toString());
        assertEquals(303, unchanged.status(), unchanged.body());
        assertTrue(member.get(unchanged.location()).body().contains("Nothing was changed."));

        var saved = member.post(TASKS + task + "/edit", "title", "Write the manual", "description", "",
                "status", "in_progress", "priority", "high", "project_id", project.toString());
        assertEquals(303, saved.status(), saved.body());
        assertTrue(member.get(saved.location()).body().contains("Task Write the manual saved."));
        var stored = f.get(task);
        assertEquals("in_progress", stored.path("status").asText());
        assertEquals("high", stored.path("priority").asText());
        assertTrue(stored.path("description").isNull(), "an emptied description is cleared: " + stored);

        var foreignCycle = member.post(TASKS + task + "/edit", "title", "Write the manual", "status", "in_progress",
                "priority", "high", "project_id", project.toString(), "cycle_id", otherCycle.toString());
        assertEquals(422, foreignCycle.status(), foreignCycle.body());
        assertTrue(foreignCycle.body().contains("cycle_id does not name a cycle of the issue&#39;s project")
                || foreignCycle.body().contains("cycle_id does not name a cycle of the issue's project"), foreignCycle.body());
        assertEquals(400, member.post(TASKS + task + "/edit", "title", "Write the manual", "status", "solved").status(),
                "a ticket's status is not a task's");
        var noTitle = member.post(TASKS + task + "/edit", "title", "", "status", "in_progress", "priority", "high",
                "project_id", project.toString());
        assertEquals(400, noTitle.status(), "a task keeps a title");
        assertTrue(noTitle.body().contains("Fill in Title."), noTitle.body());
        assertEquals("Write the manual", f.get(task).path("title").asText());
    }

    @Test
    void commentsAreAddedAndSubTasksLinkBothWays(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "task-comments");
        UUID parent = f.task("Write the manual");
        TestPerson member = platform.person(f.ws(), "member");

        var comment = member.post(TASKS + parent + "/comments/new", "body", "Start with the install guide");
        assertEquals(303, comment.status(), comment.body());
        String page = member.get(comment.location()).body();
        assertTrue(page.contains("Comment added to Write the manual.") && page.contains("Start with the install guide"),
                page);
        assertEquals("user", platform.get("/api/v1/issues/" + parent + "/comments", f.key()).json().path("data")
                .path(0).path("author_type").asText(), "written by the person, not a connection");
        assertEquals(400, member.post(TASKS + parent + "/comments/new", "body", "").status(), "a comment has a body");

        String newSubTask = member.get(TASKS + "new?parent_id=" + parent).body();
        assertTrue(newSubTask.contains("value=\"" + parent + "\""), "the form starts under its parent");
        var child = member.post(TASKS + "new", "title", "Index chapter", "parent_id", parent.toString());
        assertEquals(303, child.status(), child.body());
        String childPage = member.get(child.location()).body();
        assertTrue(childPage.contains("Parent task") && childPage.contains("href=\"" + TASKS + parent + "\""),
                "the sub-task links to its parent: " + childPage);
        assertTrue(member.get(TASKS + parent).body().contains(">Index chapter</a>"), "the parent lists it");

        UUID elsewhere = Fixtures.workspace(platform, "task-comments-other").task("Someone else's");
        var foreignParent = member.post(TASKS + "new", "title", "Sneak in", "parent_id", elsewhere.toString());
        assertEquals(422, foreignParent.status(), "another workspace's task is no parent");
        assertTrue(foreignParent.body().contains("parent_id does not name a task of this workspace"));
        assertEquals(404, member.post(TASKS + elsewhere + "/comments/new", "body", "Hello").status(),
                "another workspace's task is missing here");
    }

    @Test
    void aTaskIsDeletedAfterConfirmingAndUnknownIdsAreMissing(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "task-delete");
        UUID task = f.task("Print the manual");
        UUID ticket = f.ticket("Printer jammed");
        TestPerson member = platform.person(f.ws(), "member");

        String page = member.get(TASKS + task).body();
        assertTrue(page.contains("Delete the task Print the manual."), "the button says what happens: " + page);
        var deleted = member.post(TASKS + task + "/delete");
        assertEquals(303, deleted.status(), deleted.body());
        assertEquals(TASKS.substring(0, TASKS.length() - 1), deleted.location());
        String list = member.get(deleted.location()).body();
        assertTrue(list.contains("Task Print the manual deleted.") && !list.contains(">Print the manual</a>"), list);
        assertEquals(404, platform.get("/api/v1/issues/" + task, f.key()).status());
        assertEquals(404, member.post(TASKS + task + "/delete").status(), "deleted once only");
        assertEquals(404, member.get(TASKS + task).status());

        for (String missing : new String[] {ticket.toString(), UUID.randomUUID().toString(), "not-an-id"}) {
            assertEquals(404, member.get(TASKS + missing).status(), missing);
            assertEquals(404, member.get(TASKS + missing + "/edit").status(), missing);
            assertEquals(404, member.post(TASKS + missing + "/delete").status(), missing);
        }
        assertFalse(platform.get("/api/v1/issues/" + ticket, f.key()).data().path("title").isMissingNode(),
                "the ticket is untouched");
        UUID foreign = Fixtures.workspace(platform, "task-delete-other").task("Not yours");
        assertEquals(404, member.post(TASKS + foreign + "/delete").status());
        assertEquals(404, member.post(TASKS + foreign + "/edit", "title", "Mine now").status());
    }
}
