package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Closing a cycle moves its open tasks and tickets on, through the issues plugin's IssueDirectory. */
@PlatformTest(plugins = {"projects", "issues"})
class CycleCloseTest {

    private static String close(UUID cycle) {
        return "/api/v1/cycles/" + cycle + "/close";
    }

    private static UUID task(Fixtures f, UUID project, UUID cycle, String status) {
        return f.issue("{\"kind\": \"task\", \"title\": \"" + status + "\", \"status\": \"" + status
                + "\", \"project_id\": \"" + project + "\", \"cycle_id\": \"" + cycle + "\"}");
    }

    @Test
    void openItemsMoveToTheNextCycleWithTheirUpdateEvents(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "close cycle");
        UUID project = f.project("p");
        UUID first = f.cycle(project);
        UUID second = f.cycle(project);
        List<UUID> open = List.of(task(f, project, first, "backlog"), task(f, project, first, "todo"),
                task(f, project, first, "in_progress"), task(f, project, first, "in_review"));
        UUID done = task(f, project, first, "done");
        UUID cancelled = task(f, project, first, "cancelled");
        UUID ticket = f.issue("{\"kind\": \"ticket\", \"title\": \"t\", \"status\": \"pending\", \"project_id\": \""
                + project + "\", \"cycle_id\": \"" + first + "\"}");
        UUID deleted = task(f, project, first, "todo");
        platform.delete("/api/v1/issues/" + deleted, f.key());

        TestResponse closed = platform.post(close(first), f.key(), "{}");
        assertEquals(200, closed.status(), closed.body());
        assertEquals("completed", closed.data().path("cycle").path("status").asText());
        assertEquals(second.toString(), closed.data().path("target_cycle_id").asText());
        assertEquals(4, closed.data().path("moved").path("task").asInt());
        assertEquals(1, closed.data().path("moved").path("ticket").asInt());
        for (UUID task : open) {
            assertEquals(second.toString(), f.get(task).path("cycle_id").asText());
        }
        assertEquals(second.toString(), f.get(ticket).path("cycle_id").asText());
        assertEquals(first.toString(), f.get(done).path("cycle_id").asText(), "finished work stays in its cycle");
        assertEquals(first.toString(), f.get(cancelled).path("cycle_id").asText());
        assertEquals(Integer.valueOf(1), platform.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM"
                + " issues.tasks WHERE id = :id AND cycle_id = :cycle").bind("id", deleted).bind("cycle", first)
                .mapTo(Integer.class).one()), "a deleted task is left alone");

        // The moved items publish the event a PATCH publishes, with the new cycle in the payload.
        List<String> events = platform.jdbi().withHandle(h -> h.createQuery("SELECT event_name FROM lnp_core.outbox"
                + " WHERE workspace_id = :ws AND event_name IN ('issues.task.updated', 'issues.ticket.updated')"
                + " AND payload->>'cycle_id' = :cycle ORDER BY seq").bind("ws", f.ws()).bind("cycle", second.toString())
                .mapTo(String.class).list());
        assertEquals(5, events.size(), events.toString());
        assertTrue(events.contains("issues.ticket.updated"));
        assertEquals(Integer.valueOf(1), platform.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM"
                + " lnp_core.outbox WHERE workspace_id = :ws AND event_name = 'projects.cycle.updated'"
                + " AND payload->>'status' = 'completed'").bind("ws", f.ws()).mapTo(Integer.class).one()));

        TestResponse again = platform.post(close(first), f.key(), "{}");
        assertEquals(409, again.status(), again.body());
        assertEquals("cycle_closed", again.json().path("code").asText());
    }

    @Test
    void withoutANextCycleOpenWorkIsAConflictUnlessSentOutOfAnyCycle(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "close last cycle");
        UUID project = f.project("p");
        UUID only = f.cycle(project);
        UUID task = task(f, project, only, "todo");
        TestResponse refused = platform.post(close(only), f.key(), "{}");
        assertEquals(409, refused.status(), refused.body());
        assertEquals("no_next_cycle", refused.json().path("code").asText());
        assertEquals("upcoming", platform.get("/api/v1/cycles/" + only, f.key()).data().path("status").asText(),
                "nothing changed");
        assertEquals(only.toString(), f.get(task).path("cycle_id").asText());

        TestResponse out = platform.post(close(only), f.key(), "{\"target_cycle_id\": null}");
        assertEquals(200, out.status(), out.body());
        assertTrue(out.data().path("target_cycle_id").isNull());
        assertTrue(f.get(task).path("cycle_id").isNull());
        // A cycle without open work closes even when it is the last one.
        UUID empty = f.cycle(project);
        assertEquals(200, platform.post(close(empty), f.key(), "{}").status());
    }

    @Test
    void anExplicitTargetMustBeAnOpenCycleOfTheSameProject(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "close target");
        UUID project = f.project("p");
        UUID closing = f.cycle(project);
        UUID later = f.cycle(project);
        UUID done = f.cycle(project);
        assertEquals(200, platform.post(close(done), f.key(), "{}").status());
        UUID elsewhere = f.cycle(f.project("other"));
        Fixtures other = Fixtures.workspace(platform, "close target other");
        UUID theirs = other.cycle(other.project("theirs"));
        UUID task = task(f, project, closing, "todo");
        for (UUID target : List.of(elsewhere, theirs, UUID.randomUUID(), closing, done)) {
            TestResponse response = platform.post(close(closing), f.key(), "{\"target_cycle_id\": \"" + target + "\"}");
            assertEquals(422, response.status(), response.body());
            assertEquals("/target_cycle_id", Fixtures.pointer(response));
        }
        assertEquals("/target_cycle_id", Fixtures.pointer(platform.post(close(closing), f.key(),
                "{\"target_cycle_id\": \"x\"}")));
        assertEquals("/zz", Fixtures.pointer(platform.post(close(closing), f.key(), "{\"zz\": 1}")));
        // The last cycle is not the default target, but may be named: the target need not be the next one.
        TestResponse moved = platform.post(close(closing), f.key(), "{\"target_cycle_id\": \"" + later + "\"}");
        assertEquals(200, moved.status(), moved.body());
        assertEquals(later.toString(), f.get(task).path("cycle_id").asText());
        assertEquals(404, platform.post(close(UUID.randomUUID()), f.key(), "{}").status());
    }

    @Test
    void theCloseToolSharesTheRules(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "close tool");
        UUID project = f.project("p");
        UUID first = f.cycle(project);
        UUID second = f.cycle(project);
        UUID task = task(f, project, first, "todo");
        var result = platform.callTool(f.key(), "projects_cycle_close", "{\"id\": \"" + first + "\"}");
        assertEquals("cycle", result.entities().get(0).type());
        assertEquals(second.toString(), f.get(task).path("cycle_id").asText());
        var again = org.junit.jupiter.api.Assertions.assertThrows(dev.lnp.api.http.ApiProblem.class,
                () -> platform.callTool(f.key(), "projects_cycle_close", "{\"id\": \"" + first + "\"}"));
        assertEquals(409, again.status());
    }
}
