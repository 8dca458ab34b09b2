package dev.lnp.plugins.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The project pages of the workspace application, over HTTP as a signed-in member. */
@PlatformTest(plugins = "projects")
class ProjectPagesTest {

    @Test
    void aProjectIsCreatedPlannedInCyclesAndACycleClosed(TestPlatform platform) {
        UUID ws = platform.createWorkspace("project-pages");
        String key = platform.key(ws, "projects.read");
        TestPerson member = platform.person(ws, "member");

        assertEquals(400, member.post("/app/projects/projects/new", "name", "").status(), "a name is required");
        var created = member.post("/app/projects/projects/new", "name", "Website relaunch");
        assertEquals(303, created.status(), created.body());
        String project = created.location();
        assertTrue(member.get(project).body().contains("Project Website relaunch created."));
        assertTrue(member.get("/app/projects/projects").body().contains(">Website relaunch</a>"));

        var backwards = member.post(project + "/cycles/new", "name", "Sprint 1", "start_date", "2026-12-14",
                "end_date", "2026-12-01");
        assertEquals(422, backwards.status(), "the API's rule: the end is on or after the start");
        var cycle = member.post(project + "/cycles/new", "name", "Sprint 1", "start_date", "2026-12-01",
                "end_date", "2026-12-14");
        assertEquals(303, cycle.status(), cycle.body());
        String page = member.get(project).body();
        assertTrue(page.contains("Sprint 1") && page.contains("Close Sprint 1"), page);

        String projectId = project.substring(project.lastIndexOf('/') + 1);
        String cycleId = platform.get("/api/v1/projects/" + projectId + "/cycles", key).json().path("data").path(0)
                .path("id").asText();
        var closed = member.post(project + "/cycles/" + cycleId + "/close");
        assertEquals(303, closed.status(), closed.body());
        assertTrue(member.get(closed.location()).body().contains("Cycle Sprint 1 closed"));
        assertEquals("completed", platform.get("/api/v1/cycles/" + cycleId, key).data().path("status").asText());
        assertEquals(409, member.post(project + "/cycles/" + cycleId + "/close").status(), "closed once only");
    }
}
