package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The issues list is written from the result set straight into the response, its labels aggregated by the page
 * query: every listed item must be exactly the JSON that reading it alone answers (a node per row, labels from
 * their own query), on REST, under the project's route and through the list tool.
 */
@PlatformTest(plugins = {"projects", "issues"})
class IssueStreamingTest {

    private static Fixtures f;
    private static UUID project;
    private static List<UUID> tasks;
    private static UUID ticket;

    @BeforeAll
    static void issues(TestPlatform platform) {
        f = Fixtures.workspace(platform, "issue streaming");
        project = f.project("streamed");
        UUID cycle = f.cycle(project);
        UUID full = f.issue("""
                {"kind": "task", "title": "Łukasz \\"Luke\\" <b>&</b>", "description": "line\\nnext\\ttab 🎉",
                 "status": "in_progress", "priority": "urgent", "project_id": "%s", "cycle_id": "%s",
                 "assignee_id": "%s", "due_at": "2026-11-21T13:05:01.12345Z", "estimate_hours": 2.50}
                """.formatted(project, cycle, f.user()));
        UUID child = f.issue("""
                {"kind": "task", "title": "child", "project_id": "%s", "parent_id": "%s",
                 "due_at": "2026-01-01T00:00:00Z", "estimate_hours": 1000}""".formatted(project, full));
        UUID bare = f.issue("{\"kind\": \"task\", \"title\": \"bare\", \"project_id\": \"" + project + "\"}");
        ticket = f.ticket("a ticket");
        // Names that sort differently by case: the list orders labels by lower(name).
        List<UUID> labels = List.of(f.label("bug"), f.label("UI"), f.label("api"), f.label("Ünïcode \\\"q\\\""));
        String all = labels.stream().map(l -> "\"" + l + "\"").collect(Collectors.joining(", "));
        bulk(platform, List.of(full), """
                {"start_date": "2026-02-01", "epic_id": "%s", "add_labels": [%s]}""".formatted(bare, all));
        bulk(platform, List.of(ticket), "{\"add_labels\": [" + all + "]}");
        bulk(platform, List.of(child), "{\"add_labels\": [\"" + labels.get(1) + "\"]}");
        tasks = List.of(full, child, bare);
    }

    private static void bulk(TestPlatform platform, List<UUID> ids, String patch) {
        TestResponse response = platform.post("/api/v1/issues/bulk-update", f.key(), "{\"issueIds\": ["
                + ids.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(", ")) + "], \"patch\": " + patch
                + "}");
        assertEquals(200, response.status(), response.body());
    }

    @Test
    void restListItemsAreTheItemsAsReadOneByOne(TestPlatform platform) {
        assertItems(platform.get("/api/v1/issues?kind=task&project_id=" + project + "&limit=10", f.key()), tasks);
        assertItems(platform.get("/api/v1/projects/" + project + "/issues?limit=10", f.key()), tasks);
        assertItems(platform.get("/api/v1/issues?kind=ticket&limit=10", f.key()), List.of(ticket));
        // Paged: the page's rows, the filter's total.
        TestResponse second = platform.get("/api/v1/issues?kind=task&project_id=" + project + "&limit=1&page=2",
                f.key());
        assertItems(second, List.of(tasks.get(1)));
        assertEquals(3, second.json().path("pagination").path("total").asInt());
        // Past the end no row carries the total: it is counted on its own.
        TestResponse past = platform.get("/api/v1/issues?kind=task&project_id=" + project + "&limit=2&page=7",
                f.key());
        assertItems(past, List.of());
        assertEquals(3, past.json().path("pagination").path("total").asInt());
        assertEquals(false, past.json().path("pagination").path("hasMore").asBoolean());
    }

    @Test
    void theListToolGivesTheSameItems(TestPlatform platform) throws Exception {
        // Compared as the JSON text a client gets (a tree would tell a decimal node from a double one).
        JsonNode items = Json.parse(Json.mapper().writeValueAsString(platform.callTool(f.key(), "issues_list",
                "{\"kind\": \"task\", \"project_id\": \"" + project + "\", \"limit\": 10}").data())).path("items");
        assertEquals(tasks.size(), items.size(), items.toString());
        for (int i = 0; i < tasks.size(); i++) {
            assertEquals(f.get(tasks.get(i)), items.get(i));
        }
    }

    private static void assertItems(TestResponse response, List<UUID> expected) {
        assertEquals(200, response.status(), response.body());
        assertEquals(expected.size(), response.data().size(), response.body());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(f.get(expected.get(i)), response.data().get(i), response.body());
        }
    }
}
