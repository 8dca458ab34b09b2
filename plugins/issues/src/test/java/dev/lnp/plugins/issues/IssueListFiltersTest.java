package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The issues list's filters (cycle, assignee, label, several statuses, parent) and its order_by. */
@PlatformTest(plugins = {"projects", "issues"})
class IssueListFiltersTest {

    private static Fixtures f;
    private static UUID project;
    private static UUID cycle;
    private static UUID ann;
    private static UUID bob;
    private static UUID bug;
    private static UUID ui;
    /** Created in this order: a (todo, ann, cycle, bug, urgent, due later), b (in_progress, bob, cycle, ui, low,
     * due sooner), c (done, no one, no cycle, no label, none, no due date, child of a). */
    private static UUID a;
    private static UUID b;
    private static UUID c;

    @BeforeAll
    static void issues(TestPlatform platform) {
        f = Fixtures.workspace(platform, "list filters");
        project = f.project("filtered");
        cycle = f.cycle(project);
        ann = f.user();
        bob = f.user();
        bug = f.label("bug");
        ui = f.label("ui");
        a = f.issue(("{\"kind\": \"task\", \"title\": \"Bravo\", \"status\": \"todo\", \"priority\": \"urgent\", "
                + "\"project_id\": \"%s\", \"cycle_id\": \"%s\", \"assignee_id\": \"%s\", \"due_at\": "
                + "\"2026-05-02T00:00:00Z\"}").formatted(project, cycle, ann));
        b = f.issue(("{\"kind\": \"task\", \"title\": \"alpha\", \"status\": \"in_progress\", \"priority\": \"low\", "
                + "\"project_id\": \"%s\", \"cycle_id\": \"%s\", \"assignee_id\": \"%s\", \"due_at\": "
                + "\"2026-05-01T00:00:00Z\"}").formatted(project, cycle, bob));
        c = f.issue(("{\"kind\": \"task\", \"title\": \"Charlie\", \"status\": \"done\", \"project_id\": \"%s\", "
                + "\"parent_id\": \"%s\"}").formatted(project, a));
        label(platform, a, bug);
        label(platform, b, ui);
        // Labelling touches a, then b; b is the one touched last.
        assertEquals(200, platform.patch("/api/v1/issues/" + b, f.key(), "{\"description\": \"touched\"}").status());
    }

    private static void label(TestPlatform platform, UUID issue, UUID label) {
        assertEquals(200, platform.post("/api/v1/issues/bulk-update", f.key(), "{\"issueIds\": [\"" + issue
                + "\"], \"patch\": {\"add_labels\": [\"" + label + "\"]}}").status());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "cycle_id=CYCLE|a b",
            "assignee=ANN|a",
            "assignee=ANN&assignee=BOB|a b",
            "label=BUG|a",
            "label=BUG&label=UI|a b",
            "status=todo|a",
            "status=todo&status=done|a c",
            "status=cancelled|",
            "parent_id=A|c",
            "cycle_id=CYCLE&assignee=BOB&status=in_progress&label=UI|b",
            "cycle_id=CYCLE&assignee=ANN&label=UI|",
            "order_by=-created_at|c b a",
            "order_by=updated_at|c a b",
            "order_by=-updated_at|b a c",
            "order_by=due_at|b a c",
            "order_by=-due_at|a b c",
            "order_by=priority|a b c",
            "order_by=-priority|c b a",
            "order_by=title&status=todo&status=in_progress|b a",
            "order_by=-title&status=todo&status=in_progress|a b"})
    void filtersAndOrders(String query, String expected, TestPlatform platform) {
        String resolved = query.replace("CYCLE", cycle.toString()).replace("ANN", ann.toString())
                .replace("BOB", bob.toString()).replace("BUG", bug.toString()).replace("UI", ui.toString())
                .replace("=A", "=" + a);
        List<String> want = names(expected);
        assertEquals(want, ids(platform, "/api/v1/issues?project_id=" + project + "&" + resolved, f.key()), query);
        // The project's own task list takes the same filters and order.
        assertEquals(want, ids(platform, "/api/v1/projects/" + project + "/issues?" + resolved, f.key()), query);
    }

    private static List<String> names(String expected) {
        List<String> ids = new ArrayList<>();
        if (expected == null) {
            return ids;
        }
        for (String name : expected.split(" ")) {
            ids.add((switch (name) {
                case "a" -> a;
                case "b" -> b;
                default -> c;
            }).toString());
        }
        return ids;
    }

    @Test
    void theTotalCountsTheFilteredItems(TestPlatform platform) {
        TestResponse page = platform.get("/api/v1/issues?project_id=" + project + "&cycle_id=" + cycle + "&limit=1",
                f.key());
        assertEquals(2, page.json().path("pagination").path("total").asInt(), page.body());
        assertTrue(page.json().path("pagination").path("hasMore").asBoolean());
    }

    @Test
    void aFilterOnAnotherWorkspacesIdsMatchesNothing(TestPlatform platform) {
        Fixtures other = Fixtures.workspace(platform, "list filters other");
        UUID theirs = other.project("theirs");
        UUID theirCycle = other.cycle(theirs);
        assertEquals(List.of(), ids(platform, "/api/v1/issues?cycle_id=" + theirCycle, f.key()));
        assertEquals(List.of(), ids(platform, "/api/v1/issues?label=" + other.label("bug"), f.key()));
        assertEquals(List.of(), ids(platform, "/api/v1/issues?parent_id=" + other.task("theirs"), f.key()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "order_by=newest|?order_by",
            "order_by=CREATED_AT|?order_by",
            "order_by=created_at&order_by=title|?order_by",
            "cycle_id=x|?cycle_id",
            "assignee=someone|?assignee",
            "label=bug|?label",
            "parent_id=1|?parent_id",
            "cycle_id=CYCLE&cycle_id=CYCLE|?cycle_id"})
    void badFilterValuesAreRefusedNamingTheParameter(String query, String pointer, TestPlatform platform) {
        String resolved = query.replace("CYCLE", cycle.toString());
        TestResponse list = platform.get("/api/v1/issues?" + resolved, f.key());
        assertEquals(400, list.status(), list.body());
        assertEquals(pointer, Fixtures.pointer(list));
        TestResponse projectList = platform.get("/api/v1/projects/" + project + "/issues?" + resolved, f.key());
        assertEquals(400, projectList.status(), projectList.body());
        assertEquals(pointer, Fixtures.pointer(projectList));
    }

    @Test
    void repeatableFiltersAreBounded(TestPlatform platform) {
        String labels = "label=" + UUID.randomUUID() + ("&label=" + UUID.randomUUID()).repeat(50);
        TestResponse tooMany = platform.get("/api/v1/issues?" + labels, f.key());
        assertEquals(400, tooMany.status(), tooMany.body());
        assertEquals("?label", Fixtures.pointer(tooMany));
        assertEquals("?status", Fixtures.pointer(platform.get("/api/v1/issues?status=todo"
                + "&status=todo".repeat(20), f.key())));
        assertEquals(200, platform.get("/api/v1/issues?status=todo" + "&status=todo".repeat(19), f.key()).status());
    }

    @Test
    void theListToolTakesTheFiltersAndStillOneStatusString(TestPlatform platform) {
        assertEquals(List.of(a.toString()), toolIds(platform, "{\"project_id\": \"" + project
                + "\", \"status\": \"todo\"}"));
        assertEquals(List.of(b.toString(), a.toString()), toolIds(platform, "{\"project_id\": \"" + project
                + "\", \"status\": [\"todo\", \"in_progress\"], \"order_by\": \"-updated_at\"}"));
        assertEquals(List.of(b.toString()), toolIds(platform, "{\"assignee\": [\"" + bob + "\"], \"label\": [\""
                + ui + "\"], \"cycle_id\": \"" + cycle + "\"}"));
        ApiProblem refused = Assertions.assertThrows(ApiProblem.class, () -> platform.callTool(f.key(), "issues_list",
                "{\"order_by\": \"sideways\"}"));
        assertEquals(422, refused.status());
        assertEquals("/order_by", refused.errors().get(0).pointer());
    }

    @Test
    void theFilterIndexesExist(TestPlatform platform) {
        List<String> names = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT indexname FROM pg_indexes WHERE schemaname = 'issues' ORDER BY 1").mapTo(String.class).list());
        for (String name : List.of("tasks_cycle", "tasks_assignee", "tasks_parent", "tasks_status", "tasks_updated",
                "tasks_due", "task_labels_label", "tickets_assignee", "tickets_status", "ticket_labels_label")) {
            assertTrue(names.contains(name), name + " in " + names);
        }
    }

    private static List<String> toolIds(TestPlatform platform, String arguments) {
        JsonNode data = Json.mapper().valueToTree(platform.callTool(f.key(), "issues_list", arguments).data());
        List<String> ids = new ArrayList<>();
        data.path("items").forEach(i -> ids.add(i.path("id").asText()));
        return ids;
    }

    private static List<String> ids(TestPlatform platform, String path, String key) {
        TestResponse response = platform.get(path, key);
        assertEquals(200, response.status(), response.body());
        List<String> ids = new ArrayList<>();
        response.data().forEach(i -> ids.add(i.path("id").asText()));
        return ids;
    }
}
