package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Closing a cycle on the project's page carries its open tasks to the next cycle, over HTTP as a member. */
@PlatformTest(plugins = {"projects", "issues"})
class CycleClosePagesTest {

    @Test
    void aClosedCyclesOpenTasksMoveToTheNextAndWithoutOneNothingCloses(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "cycle-close-pages");
        UUID project = f.project("Manual");
        UUID first = f.cycle(project);
        UUID second = f.cycle(project);
        UUID open = f.issue("{\"kind\": \"task\", \"title\": \"Write the manual\", \"project_id\": \"" + project
                + "\", \"cycle_id\": \"" + first + "\"}");
        UUID done = f.issue("{\"kind\": \"task\", \"title\": \"Plan the manual\", \"status\": \"done\", "
                + "\"project_id\": \"" + project + "\", \"cycle_id\": \"" + first + "\"}");
        TestPerson member = platform.person(f.ws(), "member");
        String page = "/app/projects/projects/" + project;

        var closed = member.post(page + "/cycles/" + first + "/close");
        assertEquals(303, closed.status(), closed.body());
        assertTrue(member.get(closed.location()).body().contains("Cycle Sprint closed; 1 open item moved to the next cycle."));
        assertEquals(second.toString(), f.get(open).path("cycle_id").asText(), "the open task goes on");
        assertEquals(first.toString(), f.get(done).path("cycle_id").asText(), "the done task stays where it was done");

        var noNext = member.post(page + "/cycles/" + second + "/close");
        assertEquals(409, noNext.status(), noNext.body());
        assertTrue(noNext.body().contains("Create the next cycle first"), noNext.body());
        assertEquals(second.toString(), f.get(open).path("cycle_id").asText(), "nothing moved");

        UUID otherProject = f.project("Website");
        assertEquals(404, member.post("/app/projects/projects/" + otherProject + "/cycles/" + second + "/close").status(),
                "a cycle is closed on its own project's page");
        UUID foreign = Fixtures.workspace(platform, "cycle-close-pages-other").project("Theirs");
        assertEquals(404, member.post(page + "/cycles/" + UUID.randomUUID() + "/close").status());
        assertEquals(404, member.post(page + "/cycles/not-an-id/close").status());
        assertEquals(404, member.post("/app/projects/projects/" + foreign + "/cycles/" + second + "/close").status());
    }
}
