package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Changing several tasks at once from the task list, over HTTP as a signed-in member (a plain form, no script). */
@PlatformTest(plugins = {"projects", "issues"})
class TaskBulkPagesTest {

    private static final String BULK = "/app/projects/tasks/bulk";

    @Test
    void tickedTasksGetTheStatusAssigneeCycleAndLabelsOfTheForm(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "bulk-pages");
        UUID project = f.project("Manual");
        UUID cycle = f.cycle(project);
        UUID label = f.label("Docs");
        UUID write = f.issue("{\"kind\": \"task\", \"title\": \"Write the manual\", \"project_id\": \"" + project + "\"}");
        UUID print = f.issue("{\"kind\": \"task\", \"title\": \"Print the manual\", \"project_id\": \"" + project + "\"}");
        UUID untouched = f.task("Bind the manual");
        TestPerson member = platform.person(f.ws(), "member");
        UUID me = platform.jdbi().withHandle(h -> h.createQuery("SELECT id FROM lnp_core.users WHERE email = :e")
                .bind("e", member.email()).mapTo(UUID.class).one());

        String list = member.get("/app/projects/tasks?sort=title").body();
        assertTrue(list.contains("name=\"task_ids\" value=\"" + write + "\"") && list.contains("aria-label=\"Select Write the manual\""),
                "a checkbox per row, named by the row: " + list);
        assertTrue(list.contains("action=\"" + BULK + "?sort=title\""), "the list comes back as it was");
        assertTrue(list.contains(">Manual: Sprint</option>") && list.contains("> Docs</label>"),
                "the workspace's cycles and labels are the choices: " + list);

        var changed = member.post(BULK + "?sort=title", "task_ids", write.toString(), "task_ids", print.toString(),
                "status", "in_progress", "assignee", "me", "cycle", cycle.toString(), "add_labels", label.toString());
        assertEquals(303, changed.status(), changed.body());
        assertEquals("/app/projects/tasks?sort=title", changed.location());
        String notice = member.get(changed.location()).body();
        assertTrue(notice.contains("2 tasks changed (status In progress, assigned to you, cycle Manual: Sprint, 1 label added): "
                + "“Write the manual”, “Print the manual”."), notice);
        for (UUID task : new UUID[] {write, print}) {
            var stored = f.get(task);
            assertEquals("in_progress", stored.path("status").asText());
            assertEquals(me.toString(), stored.path("assignee_id").asText());
            assertEquals(cycle.toString(), stored.path("cycle_id").asText());
            assertEquals("Docs", stored.path("labels").path(0).path("name").asText(), stored.toString());
        }
        assertEquals("backlog", f.get(untouched).path("status").asText(), "only the ticked tasks change");

        var cleared = member.post(BULK, "task_ids", write.toString(), "assignee", "nobody", "cycle", "none",
                "remove_labels", label.toString());
        assertEquals(303, cleared.status(), cleared.body());
        var stored = f.get(write);
        assertTrue(stored.path("assignee_id").isNull() && stored.path("cycle_id").isNull(), stored.toString());
        assertEquals(0, stored.path("labels").size(), stored.toString());
    }

    @Test
    void aRefusedChangeChangesNoTaskAndSaysWhyInWords(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "bulk-refused");
        UUID project = f.project("Manual");
        UUID otherCycle = f.cycle(f.project("Website"));
        UUID inProject = f.issue("{\"kind\": \"task\", \"title\": \"Write the manual\", \"project_id\": \"" + project + "\"}");
        UUID loose = f.task("Tidy the desk");
        UUID ticket = f.ticket("Printer jammed");
        UUID foreign = Fixtures.workspace(platform, "bulk-refused-other").task("Not yours");
        TestPerson member = platform.person(f.ws(), "member");

        var wrongCycle = member.post(BULK, "task_ids", inProject.toString(), "task_ids", loose.toString(),
                "status", "done", "cycle", otherCycle.toString());
        assertEquals(422, wrongCycle.status(), wrongCycle.body());
        assertTrue(wrongCycle.body().contains("Nothing was changed: the cycle belongs to another project than task "
                + "“Write the manual”; the cycle belongs to another project than task “Tidy the desk”."), wrongCycle.body());
        assertEquals("backlog", f.get(inProject).path("status").asText(), "all or nothing");

        var noneTicked = member.post(BULK, "status", "done");
        assertEquals(400, noneTicked.status());
        assertTrue(noneTicked.body().contains("Tasks: Choose at least 1."), noneTicked.body());
        var nothingChosen = member.post(BULK, "task_ids", loose.toString());
        assertEquals(400, nothingChosen.status());
        assertTrue(nothingChosen.body().contains("choose a status, an assignee, a cycle or a label"), nothingChosen.body());
        var notATask = member.post(BULK, "task_ids", ticket.toString(), "status", "done");
        assertEquals(404, notATask.status(), "a ticket is not changed from the task list");
        assertEquals("new", f.get(ticket).path("status").asText());
        var elsewhere = member.post(BULK, "task_ids", loose.toString(), "task_ids", foreign.toString(), "status", "done");
        assertEquals(404, elsewhere.status(), "another workspace's task is missing here");
        assertTrue(elsewhere.body().contains("this ticked task does not exist (any more) in this workspace: " + foreign),
                elsewhere.body());
        assertEquals("backlog", f.get(loose).path("status").asText());
        assertEquals(400, member.post(BULK, "task_ids", "not-an-id", "status", "done").status());
        assertEquals(422, member.post(BULK, "task_ids", loose.toString(), "cycle", "sprint-1").status(),
                "a cycle that is no id");
        assertEquals(400, member.post(BULK, "task_ids", loose.toString(), "status", "solved").status(),
                "a ticket's status is not a task's");
    }
}
