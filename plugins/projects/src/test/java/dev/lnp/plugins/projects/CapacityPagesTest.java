package dev.lnp.plugins.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The capacity view and the allocations behind it, over HTTP as a signed-in member. */
@PlatformTest(plugins = "projects")
class CapacityPagesTest {

    private static final String ALLOCATIONS = "/app/projects/allocations";

    @Test
    void anOverbookedWeekIsMarkedInWordsAndAnAllocationChangedOrDeletedFromItsPage(TestPlatform platform) {
        UUID ws = platform.createWorkspace("capacity-pages");
        String key = platform.key(ws, "projects.write", "planning.read", "planning.write");
        UUID project = ProjectsApiTest.create(platform, key, "{\"name\": \"Relaunch\"}");
        TestPerson member = platform.person(ws, "member");
        UUID me = platform.jdbi().withHandle(h -> h.createQuery("SELECT id FROM lnp_core.users WHERE email = :e")
                .bind("e", member.email()).mapTo(UUID.class).one());
        // Week 2025-W02: 6 h a day for five days and 50 % of 40 h, 50 h against 40: accepted, and marked.
        UUID hours = AllocationChangesTest.allocate(platform, key, project, me, ", \"hours_per_day\": 6");
        UUID half = AllocationChangesTest.allocate(platform, key, project, me, ", \"percentage\": 50");

        String view = member.get("/app/projects/capacity?from=2025-01-06&weeks=4").body();
        assertTrue(view.contains("2025-W02 (2025-01-06)") && view.contains("⚠ Overbooked by 10 h"), view);
        assertTrue(view.contains("Within capacity, 40 h free"), "the following weeks are free: " + view);
        assertTrue(view.contains("href=\"" + ALLOCATIONS + "?user_id=" + me + "\">2 allocations</a>"), view);
        String mine = member.get(ALLOCATIONS + "?user_id=" + me).body();
        assertTrue(mine.contains("Allocations of you") && mine.contains("href=\"" + ALLOCATIONS + "/" + hours + "\"")
                && mine.contains("6 h a working day") && mine.contains("50 % of the week"), mine);

        assertTrue(member.get(ALLOCATIONS + "/" + hours).body().contains("Delete this allocation"));
        var changed = member.post(ALLOCATIONS + "/" + hours + "/edit", "user_id", me.toString(), "project_id",
                project.toString(), "start_date", "2025-01-06", "end_date", "2025-01-10", "hours_per_day", "2");
        assertEquals(303, changed.status(), changed.body());
        assertTrue(member.get(changed.location()).body().contains("Allocation saved."));
        assertEquals(2, platform.get("/api/v1/planning/allocations/" + hours, key).data().path("hours_per_day").asInt());
        assertTrue(member.get("/app/projects/capacity?from=2025-01-06").body().contains("Within capacity, 10 h free"),
                "10 h and 20 h of 40");

        var both = member.post(ALLOCATIONS + "/" + hours + "/edit", "user_id", me.toString(), "start_date",
                "2025-01-06", "end_date", "2025-01-10", "hours_per_day", "3", "percentage", "20");
        assertEquals(422, both.status(), both.body());
        assertTrue(both.body().contains("hours_per_day or percentage"), "the API's rule, in its words: " + both.body());
        var backwards = member.post(ALLOCATIONS + "/" + hours + "/edit", "user_id", me.toString(), "start_date",
                "2025-01-10", "end_date", "2025-01-06", "hours_per_day", "2");
        assertEquals(422, backwards.status(), backwards.body());
        assertEquals(400, member.post(ALLOCATIONS + "/" + hours + "/edit", "percentage", "150").status());

        var deleted = member.post(ALLOCATIONS + "/" + half + "/delete");
        assertEquals(303, deleted.status(), deleted.body());
        assertTrue(member.get(deleted.location()).body().contains("Allocation from 2025-01-06 to 2025-01-10 deleted."));
        assertEquals(404, platform.get("/api/v1/planning/allocations/" + half, key).status());
        assertEquals(404, member.post(ALLOCATIONS + "/" + half + "/delete").status(), "deleted once only");

        assertEquals(400, member.get("/app/projects/capacity?from=yesterday").status(), "a date is a date");
        assertTrue(member.get("/app/projects/capacity?from=yesterday").body().contains("give a date like"));
        for (String missing : new String[] {UUID.randomUUID().toString(), "not-an-id"}) {
            assertEquals(404, member.get(ALLOCATIONS + "/" + missing).status(), missing);
            assertEquals(404, member.post(ALLOCATIONS + "/" + missing + "/delete").status(), missing);
        }
        TestPerson stranger = platform.person(platform.createWorkspace("capacity-pages-other"), "member");
        assertEquals(404, stranger.get(ALLOCATIONS + "/" + hours).status(), "another workspace's allocation");
        assertEquals(404, stranger.post(ALLOCATIONS + "/" + hours + "/delete").status());
        assertEquals(404, stranger.post(ALLOCATIONS + "/" + hours + "/edit", "hours_per_day", "1").status());
        assertTrue(!stranger.get("/app/projects/capacity?from=2025-01-06").body().contains("Overbooked"),
                "nobody else's weeks");
    }
}
