package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPerson;
import dev.lnp.testkit.TestPlatform;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The Projects home over HTTP (the projects plugin's page, counting the issues plugin's tasks): open tasks by
 * status in the cycle running today, its burn-up, and the lists the numbers lead to.
 */
@PlatformTest(plugins = {"projects", "issues"})
class ProjectsHomeTest {

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("d MMM", Locale.ENGLISH);

    @Test
    void theCurrentCyclesOpenTasksAndBurnUpAreCountedForThisWorkspaceOnly(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "projects-home");
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        LocalDate start = today.minusDays(4);
        UUID project = f.project("Apollo");
        UUID cycle = cycle(f, project, "Sprint 7", start, today.plusDays(9));
        cycle(f, project, "Sprint 1", LocalDate.of(2025, 1, 1), LocalDate.of(2025, 1, 14));
        UUID first = task(f, "Write the plan", project, cycle, "todo");
        task(f, "Review the plan", project, cycle, "todo");
        UUID build = task(f, "Build the rocket", project, cycle, "in_progress");
        UUID fuel = task(f, "Order fuel", project, cycle, "todo");
        task(f, "Dropped idea", project, cycle, "cancelled");
        f.task("Not in any cycle");
        for (UUID early : java.util.List.of(first, build, fuel)) {
            sql(f, "UPDATE issues.tasks SET created_at = :at WHERE id = :id", early, start.minusDays(2));
        }
        sql(f, "UPDATE issues.tasks SET created_at = :at WHERE title = 'Review the plan' AND workspace_id = :ws", null,
                start.minusDays(2));
        assertEquals(200, platform.patch("/api/v1/issues/" + fuel, f.key(), "{\"status\":\"done\"}").status());
        sql(f, "UPDATE issues.tasks SET done_at = :at WHERE id = :id", fuel, start.plusDays(1));
        // Added today: the scope grows on the last day.
        task(f, "Paint the rocket", project, cycle, "todo");
        Fixtures other = Fixtures.workspace(platform, "projects-home-other");
        UUID theirProject = other.project("Apollo");
        UUID theirs = cycle(other, theirProject, "Sprint 7", start, today.plusDays(9));
        task(other, "Their task", theirProject, theirs, "todo");
        TestPerson member = platform.person(f.ws(), "member");

        String home = member.get("/app/projects").body();
        assertTrue(home.contains("<h1>Projects</h1>"), home);
        assertTrue(home.contains("<a href=\"/app/projects\" aria-current=\"page\">Overview</a>"), home);
        assertTrue(home.contains("<a href=\"/app/projects/board?cycle_id=" + cycle + "\">4</a>"),
                "write, review, paint (to do) and build (in progress): " + home);
        String todo = "/app/projects/tasks?cycle_id=" + cycle + "&amp;status=todo";
        assertTrue(home.contains("href=\"" + todo + "\">3<"), home);
        assertTrue(home.contains("href=\"/app/projects/tasks?cycle_id=" + cycle + "&amp;status=in_progress\">1<"), home);
        assertTrue(home.contains("href=\"/app/projects/tasks?cycle_id=" + cycle + "&amp;status=in_review\">0<"), home);
        assertFalse(home.contains(theirs.toString()) || home.contains("Sprint 1"), "neither theirs nor a past cycle");
        assertTrue(home.contains("Burn-up: Apollo · Sprint 7"), home);
        assertTrue(row(home, start).matches("(?s).*>4<.*>0<.*"), "scope 4 from the start: " + row(home, start));
        assertTrue(row(home, start.plusDays(1)).matches("(?s).*>4<.*>1<.*"), row(home, start.plusDays(1)));
        assertTrue(row(home, today).matches("(?s).*>5<.*>1<.*"), "painting added today: " + row(home, today));
        assertFalse(home.contains("<th scope=\"row\">" + DAY.format(today.plusDays(1)) + "</th>"), "no day to come");

        String listed = member.get(todo.replace("&amp;", "&")).body();
        assertTrue(listed.contains("Write the plan") && listed.contains("Paint the rocket"), listed);
        assertFalse(listed.contains("Build the rocket") || listed.contains("Not in any cycle")
                || listed.contains("Their task"), listed);
    }

    @Test
    void withoutACycleRunningTodayTheHomeSaysSo(TestPlatform platform) {
        Fixtures f = Fixtures.workspace(platform, "projects-home-empty");
        var home = platform.person(f.ws(), "member").get("/app/projects");
        assertEquals(200, home.status());
        assertTrue(home.body().contains("No cycle is running today."), home.body());
        assertTrue(home.body().contains("Cycles running today"), home.body());
    }

    private static UUID cycle(Fixtures f, UUID project, String name, LocalDate start, LocalDate end) {
        var created = f.platform().post("/api/v1/projects/" + project + "/cycles", f.key(), "{\"name\": \"" + name
                + "\", \"start_date\": \"" + start + "\", \"end_date\": \"" + end + "\"}");
        assertEquals(201, created.status(), created.body());
        return UUID.fromString(created.data().path("id").asText());
    }

    private static UUID task(Fixtures f, String title, UUID project, UUID cycle, String status) {
        return f.issue("{\"kind\": \"task\", \"title\": \"" + title + "\", \"project_id\": \"" + project
                + "\", \"cycle_id\": \"" + cycle
                + "\", \"status\": \"" + status + "\"}");
    }

    private static String row(String html, LocalDate day) {
        String label = "<th scope=\"row\">" + DAY.format(day) + "</th>";
        int at = html.indexOf(label);
        assertTrue(at >= 0, "no row for " + label);
        return html.substring(at, html.indexOf("</tr>", at));
    }

    private static void sql(Fixtures f, String sql, UUID id, LocalDate day) {
        f.platform().jdbi().useHandle(h -> {
            var update = h.createUpdate(sql).bind("at", day.atTime(12, 0).atOffset(ZoneOffset.UTC));
            if (sql.contains(":id")) update.bind("id", id);
            if (sql.contains(":ws")) update.bind("ws", f.ws());
            update.execute();
        });
    }
}
