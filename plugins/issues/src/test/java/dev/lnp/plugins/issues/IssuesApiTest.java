package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

@PlatformTest(plugins = {"projects", "issues"})
class IssuesApiTest {

    private static Fixtures f;
    private static UUID project;
    private static UUID cycle;

    @BeforeAll
    static void setUp(TestPlatform platform) {
        f = Fixtures.workspace(platform, "issues");
        project = f.project("Issues home");
        cycle = f.cycle(project);
    }

    @Test
    void whatAnIssueReturnsAPatchAccepts(TestPlatform platform) {
        UUID epic = f.task("epic");
        UUID task = f.task("planned");
        // Every field read back is accepted unchanged by a PATCH: start_date and epic_id included.
        JsonNode read = f.get(task);
        assertTrue(read.has("start_date") && read.has("epic_id"), read.toString());
        var patched = platform.patch("/api/v1/issues/" + task, f.key(),
                "{\"start_date\": \"2025-03-01\", \"epic_id\": \"" + epic + "\"}");
        assertEquals(200, patched.status(), patched.body());
        assertEquals("2025-03-01", patched.data().path("start_date").asText());
        assertEquals(epic.toString(), patched.data().path("epic_id").asText());
        assertEquals(epic.toString(), f.get(task).path("epic_id").asText());
        var cleared = platform.patch("/api/v1/issues/" + task, f.key(), "{\"start_date\": null, \"epic_id\": null}");
        assertEquals(200, cleared.status(), cleared.body());
        assertTrue(cleared.data().path("start_date").isNull() && cleared.data().path("epic_id").isNull());
        // The bulk patch's rules: an epic is a task of this workspace, never the item itself.
        assertEquals("/epic_id", Fixtures.pointer(platform.patch("/api/v1/issues/" + task, f.key(),
                "{\"epic_id\": \"" + task + "\"}")));
        assertEquals("/epic_id", Fixtures.pointer(platform.patch("/api/v1/issues/" + task, f.key(),
                "{\"epic_id\": \"" + f.ticket("not an epic") + "\"}")));
        Fixtures other = Fixtures.workspace(platform, "other epics");
        assertEquals("/epic_id", Fixtures.pointer(platform.patch("/api/v1/issues/" + task, f.key(),
                "{\"epic_id\": \"" + other.task("theirs") + "\"}")));
        assertEquals("/start_date", Fixtures.pointer(platform.patch("/api/v1/issues/" + task, f.key(),
                "{\"start_date\": \"2025-02-30\"}")));
        // The MCP update tool shares the rules.
        var tool = platform.callTool(f.key(), "issues_update", "{\"id\": \"" + task + "\", \"epic_id\": \""
                + epic + "\"}");
        assertEquals(epic.toString(), Json.mapper().valueToTree(tool.data()).path("epic_id").asText());
    }

    @Test
    void createsATaskWithEveryFieldAndDefaults(TestPlatform platform) {
        UUID parent = f.task("parent");
        UUID assignee = f.user();
        var response = platform.post("/api/v1/issues", f.key(), """
                {"kind": "task", "title": "Write docs", "description": "all of them", "status": "todo",
                 "priority": "high", "project_id": "%s", "assignee_id": "%s", "due_at": "2025-02-01T10:00:00Z",
                 "parent_id": "%s", "cycle_id": "%s", "estimate_hours": 2.5}
                """.formatted(project, assignee, parent, cycle));
        assertEquals(201, response.status(), response.body());
        JsonNode task = response.data();
        assertEquals("task", task.path("kind").asText());
        assertEquals("todo", task.path("status").asText());
        assertEquals("high", task.path("priority").asText());
        assertEquals(project.toString(), task.path("project_id").asText());
        assertEquals(assignee.toString(), task.path("assignee_id").asText());
        assertEquals(parent.toString(), task.path("parent_id").asText());
        assertEquals(cycle.toString(), task.path("cycle_id").asText());
        assertEquals(2.5, task.path("estimate_hours").asDouble());
        assertTrue(task.path("due_at").asText().startsWith("2025-02-01T10:00"), task.toString());
        assertEquals(0, task.path("labels").size());
        assertEquals(platform.principal(f.key()).actorId().toString(), task.path("created_by").asText());

        JsonNode minimal = f.get(f.task("minimal"));
        assertEquals("backlog", minimal.path("status").asText());
        assertEquals("none", minimal.path("priority").asText());
        assertEquals("new", f.get(f.ticket("a ticket")).path("status").asText());
    }

    static Stream<Arguments> invalidCreates() {
        String p = "\"project_id\": \"PROJECT\"";
        return Stream.of(
                Arguments.of("{\"title\": \"no kind\"}", "/kind"),
                Arguments.of("{\"kind\": \"bug\", \"title\": \"t\"}", "/kind"),
                Arguments.of("{\"kind\": \"Task\", \"title\": \"t\"}", "/kind"),
                Arguments.of("{\"kind\": \"task\"}", "/title"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"\"}", "/title"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"TOO_LONG\"}", "/title"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"labels\": [\"bug\"]}", "/labels"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"severity\": 1}", "/severity"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"description\": 5}", "/description"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"status\": \"open\"}", "/status"),
                Arguments.of("{\"kind\": \"ticket\", \"title\": \"t\", \"status\": \"todo\"}", "/status"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"status\": \"finished\"}", "/status"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"priority\": \"critical\"}", "/priority"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"priority\": \"HIGH\"}", "/priority"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"project_id\": \"p1\"}", "/project_id"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"project_id\": \"RANDOM\"}", "/project_id"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"assignee_id\": \"bob\"}", "/assignee_id"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"due_at\": \"2025-02-01\"}", "/due_at"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"due_at\": \"tomorrow\"}", "/due_at"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"parent_id\": \"RANDOM\"}", "/parent_id"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"parent_id\": \"A_TICKET\"}", "/parent_id"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"cycle_id\": \"CYCLE\"}", "/cycle_id"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", " + p + ", \"cycle_id\": \"RANDOM\"}", "/cycle_id"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"estimate_hours\": -1}", "/estimate_hours"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"estimate_hours\": \"2\"}", "/estimate_hours"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"start_date\": \"2025-01-01\"}", "/start_date"),
                Arguments.of("{\"kind\": \"task\", \"title\": \"t\", \"epic_id\": \"RANDOM\"}", "/epic_id"));
    }

    @ParameterizedTest
    @MethodSource("invalidCreates")
    void createRejectsEachBrokenRuleNamingTheField(String template, String pointer, TestPlatform platform) {
        String body = template.replace("TOO_LONG", "t".repeat(501))
                .replace("PROJECT", project.toString())
                .replace("CYCLE", cycle.toString())
                .replace("RANDOM", UUID.randomUUID().toString())
                .replace("A_TICKET", f.ticket("not a task parent").toString());
        var response = platform.post("/api/v1/issues", f.key(), body);
        assertEquals(422, response.status(), response.body());
        assertEquals(pointer, Fixtures.pointer(response), response.body());
    }

    @Test
    void labelsOnCreateAreRejectedWithAHintToBulkUpdate(TestPlatform platform) {
        var response = platform.post("/api/v1/issues", f.key(), "{\"kind\": \"task\", \"title\": \"t\", \"labels\": []}");
        assertEquals(422, response.status());
        assertTrue(response.json().path("errors").get(0).path("message").asText().contains("add_labels"), response.body());
    }

    @Test
    void statusMessageListsTheKindsValues(TestPlatform platform) {
        var response = platform.post("/api/v1/issues", f.key(), "{\"kind\": \"ticket\", \"title\": \"t\", \"status\": \"done\"}");
        assertEquals(422, response.status());
        String message = response.json().path("errors").get(0).path("message").asText();
        assertTrue(message.contains("new, open, pending, on_hold, solved, closed"), message);
    }

    @Test
    void listsNeverMergeKindsAndDefaultToTasks(TestPlatform platform) {
        Fixtures g = Fixtures.workspace(platform, "kinds");
        UUID p = g.project("p");
        UUID task = g.issue("{\"kind\": \"task\", \"title\": \"shared words\", \"project_id\": \"" + p + "\"}");
        UUID ticket = g.issue("{\"kind\": \"ticket\", \"title\": \"shared words\", \"project_id\": \"" + p + "\"}");

        assertEquals(List.of(task.toString()), ids(platform, "/api/v1/issues", g.key()));
        assertEquals(List.of(task.toString()), ids(platform, "/api/v1/issues?kind=task", g.key()));
        assertEquals(List.of(ticket.toString()), ids(platform, "/api/v1/issues?kind=ticket", g.key()));
        assertEquals(List.of(task.toString()), ids(platform, "/api/v1/issues?search=shared", g.key()));
        assertEquals(List.of(ticket.toString()), ids(platform, "/api/v1/issues?kind=ticket&search=SHARED", g.key()));
        assertEquals(List.of(task.toString()), ids(platform, "/api/v1/issues?project_id=" + p, g.key()));
        assertEquals(List.of(ticket.toString()), ids(platform, "/api/v1/issues?kind=ticket&project_id=" + p, g.key()));
        assertEquals(List.of(task.toString()), ids(platform, "/api/v1/issues?status=backlog", g.key()));
        assertEquals(List.of(), ids(platform, "/api/v1/issues?status=new", g.key()));
        assertEquals(List.of(ticket.toString()), ids(platform, "/api/v1/issues?kind=ticket&status=new", g.key()));
        assertEquals(List.of(task.toString()), ids(platform, "/api/v1/projects/" + p + "/issues", g.key()));
        assertEquals(1, platform.get("/api/v1/issues?kind=ticket", g.key()).json().path("pagination").path("total").asInt());
    }

    @Test
    void searchMatchesTitleAndDescriptionAndTreatsWildcardsLiterally(TestPlatform platform) {
        Fixtures g = Fixtures.workspace(platform, "search");
        UUID inTitle = g.task("Fix the Login page");
        UUID inDescription = g.issue("{\"kind\": \"task\", \"title\": \"other\", \"description\": \"the login fails\"}");
        g.task("100% done");
        g.task("unrelated");
        var found = ids(platform, "/api/v1/issues?search=login", g.key());
        assertEquals(List.of(inTitle.toString(), inDescription.toString()), found);
        assertEquals(1, ids(platform, "/api/v1/issues?search=%25", g.key()).size());
        assertEquals(0, ids(platform, "/api/v1/issues?search=_nothing", g.key()).size());
    }

    @Test
    void theSearchIndexesAreTrigramGinIndexes(TestPlatform platform) {
        List<String> defs = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT indexdef FROM pg_indexes WHERE schemaname = 'issues' AND indexname LIKE '%trgm'")
                .mapTo(String.class).list());
        assertEquals(4, defs.size(), defs.toString());
        assertTrue(defs.stream().allMatch(d -> d.contains("USING gin") && d.contains("gin_trgm_ops")), defs.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"per_page=10", "sort=title", "order=desc", "overdue=true", "assignee_id=00000000-0000-0000-0000-000000000001"})
    void unimplementedListParametersAreRejected(String param, TestPlatform platform) {
        var response = platform.get("/api/v1/issues?" + param, f.key());
        assertEquals(400, response.status(), response.body());
        assertEquals("?" + param.substring(0, param.indexOf('=')), Fixtures.pointer(response));
    }

    @Test
    void listQueryValuesAreChecked(TestPlatform platform) {
        assertEquals("?kind", Fixtures.pointer(platform.get("/api/v1/issues?kind=epic", f.key())));
        assertEquals("?project_id", Fixtures.pointer(platform.get("/api/v1/issues?project_id=x", f.key())));
        assertEquals(400, platform.get("/api/v1/issues?limit=101", f.key()).status());
        assertEquals(400, platform.get("/api/v1/projects/" + project + "/issues?kind=ticket", f.key()).status());
    }

    @Test
    void getFindsTasksAndTicketsById(TestPlatform platform) {
        UUID task = f.task("find me");
        UUID ticket = f.ticket("find me too");
        assertEquals("task", f.get(task).path("kind").asText());
        assertEquals("ticket", f.get(ticket).path("kind").asText());
        assertEquals(404, platform.get("/api/v1/issues/" + UUID.randomUUID(), f.key()).status());
        var malformed = platform.get("/api/v1/issues/not-a-uuid", f.key());
        assertEquals(400, malformed.status());
        assertEquals("{id}", malformed.json().path("errors").get(0).path("pointer").asText());
    }

    @Test
    void kindCannotBeChangedByPatch(TestPlatform platform) {
        UUID task = f.task("stays a task");
        var other = platform.patch("/api/v1/issues/" + task, f.key(), "{\"kind\": \"ticket\"}");
        assertEquals(422, other.status(), other.body());
        assertEquals("/kind", Fixtures.pointer(other));
        assertTrue(other.json().path("errors").get(0).path("message").asText().contains("cannot be changed"));
        var alone = platform.patch("/api/v1/issues/" + task, f.key(), "{\"kind\": \"task\"}");
        assertEquals(422, alone.status(), alone.body());
        assertEquals("/kind", Fixtures.pointer(alone));
        var withOther = platform.patch("/api/v1/issues/" + task, f.key(), "{\"kind\": \"ticket\", \"title\": \"x\"}");
        assertEquals(422, withOther.status());
        assertEquals("task", f.get(task).path("kind").asText());
        assertEquals("stays a task", f.get(task).path("title").asText());
        assertEquals(1, count(platform, "tasks", task));
        assertEquals(0, count(platform, "tickets", task));
    }

    @Test
    void patchAcceptsAnUnchangedKindWithAnotherField(TestPlatform platform) {
        UUID task = f.task("a task");
        var response = platform.patch("/api/v1/issues/" + task, f.key(), "{\"kind\": \"task\", \"title\": \"x\"}");
        assertEquals(200, response.status(), response.body());
        assertEquals("x", response.json().path("data").path("title").asText());
        assertEquals("task", response.json().path("data").path("kind").asText());
        UUID ticket = f.ticket("a ticket");
        var asTicket = platform.patch("/api/v1/issues/" + ticket, f.key(), "{\"kind\": \"ticket\", \"status\": \"open\"}");
        assertEquals(200, asTicket.status(), asTicket.body());
        assertEquals("open", asTicket.json().path("data").path("status").asText());
        var asTask = platform.patch("/api/v1/issues/" + ticket, f.key(), "{\"kind\": \"task\", \"status\": \"open\"}");
        assertEquals(422, asTask.status(), asTask.body());
        assertEquals("/kind", Fixtures.pointer(asTask));
    }

    @Test
    void patchUpdatesFieldsWithPerKindStatusRules(TestPlatform platform) {
        UUID task = f.task("patch me");
        UUID ticket = f.ticket("patch me too");
        var ok = platform.patch("/api/v1/issues/" + task, f.key(), "{\"status\": \"in_review\", \"priority\": \"urgent\","
                + " \"project_id\": \"" + project + "\", \"cycle_id\": \"" + cycle + "\"}");
        assertEquals(200, ok.status(), ok.body());
        assertEquals("in_review", ok.data().path("status").asText());
        assertEquals(cycle.toString(), ok.data().path("cycle_id").asText());

        var wrongKindStatus = platform.patch("/api/v1/issues/" + ticket, f.key(), "{\"status\": \"in_review\"}");
        assertEquals(422, wrongKindStatus.status());
        assertEquals("/status", Fixtures.pointer(wrongKindStatus));
        assertEquals(200, platform.patch("/api/v1/issues/" + ticket, f.key(), "{\"status\": \"solved\"}").status());

        assertEquals(422, platform.patch("/api/v1/issues/" + task, f.key(), "{}").status());
        assertEquals("/title", Fixtures.pointer(platform.patch("/api/v1/issues/" + task, f.key(), "{\"title\": null}")));

        // The stored cycle must still belong to the project after the project changes.
        UUID otherProject = f.project("other");
        var moved = platform.patch("/api/v1/issues/" + task, f.key(), "{\"project_id\": \"" + otherProject + "\"}");
        assertEquals(422, moved.status(), moved.body());
        assertEquals("/cycle_id", Fixtures.pointer(moved));
        var movedAndCleared = platform.patch("/api/v1/issues/" + task, f.key(),
                "{\"project_id\": \"" + otherProject + "\", \"cycle_id\": null}");
        assertEquals(200, movedAndCleared.status(), movedAndCleared.body());
        assertTrue(movedAndCleared.data().path("cycle_id").isNull());
    }

    @Test
    void parentMustBeOfTheSameKindAndNotALoop(TestPlatform platform) {
        UUID a = f.task("a");
        UUID b = f.issue("{\"kind\": \"task\", \"title\": \"b\", \"parent_id\": \"" + a + "\"}");
        assertEquals("/parent_id", Fixtures.pointer(platform.patch("/api/v1/issues/" + a, f.key(),
                "{\"parent_id\": \"" + b + "\"}")));
        assertEquals("/parent_id", Fixtures.pointer(platform.patch("/api/v1/issues/" + a, f.key(),
                "{\"parent_id\": \"" + a + "\"}")));
        UUID ticket = f.ticket("t");
        assertEquals("/parent_id", Fixtures.pointer(platform.patch("/api/v1/issues/" + ticket, f.key(),
                "{\"parent_id\": \"" + a + "\"}")));
    }

    @Test
    void deletingATaskIsSoft(TestPlatform platform) {
        UUID task = f.issue("{\"kind\": \"task\", \"title\": \"doomed\", \"project_id\": \"" + project + "\"}");
        var deleted = platform.delete("/api/v1/issues/" + task, f.key());
        assertEquals(200, deleted.status(), deleted.body());
        assertEquals(task.toString(), deleted.data().path("id").asText());
        assertTrue(deleted.data().path("deleted").asBoolean());
        assertEquals(404, platform.get("/api/v1/issues/" + task, f.key()).status());
        assertEquals(404, platform.patch("/api/v1/issues/" + task, f.key(), "{\"title\": \"x\"}").status());
        assertEquals(404, platform.delete("/api/v1/issues/" + task, f.key()).status());
        assertEquals(404, platform.get("/api/v1/issues/" + task + "/comments", f.key()).status());
        assertFalse(platform.get("/api/v1/issues?limit=100", f.key()).data().toString().contains(task.toString()));
        assertFalse(platform.get("/api/v1/projects/" + project + "/issues?limit=100", f.key()).data().toString()
                .contains(task.toString()));
        assertEquals(Integer.valueOf(1), platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM issues.tasks WHERE id = :id AND deleted_at IS NOT NULL").bind("id", task)
                .mapTo(Integer.class).one()));
    }

    @Test
    void deletingATicketIsRefusedAndLeavesItIntact(TestPlatform platform) {
        UUID ticket = f.issue("{\"kind\": \"ticket\", \"title\": \"keep me\", \"status\": \"open\"}");
        String before = f.get(ticket).toString();
        var response = platform.delete("/api/v1/issues/" + ticket, f.key());
        assertEquals(409, response.status(), response.body());
        assertEquals("ticket_delete_not_supported", response.json().path("code").asText());
        assertTrue(response.json().path("detail").asText().contains("cannot be deleted"), response.body());
        assertEquals(before, f.get(ticket).toString());
        assertTrue(platform.get("/api/v1/issues?kind=ticket&limit=100", f.key()).data().toString().contains(ticket.toString()));
        assertEquals(Integer.valueOf(0), platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM lnp_core.outbox WHERE payload->>'id' = :id AND event_name LIKE '%deleted'")
                .bind("id", ticket.toString()).mapTo(Integer.class).one()));
    }

    @Test
    void projectTasksRouteNeedsALiveProjectOfTheWorkspace(TestPlatform platform) {
        UUID gone = f.project("gone");
        platform.delete("/api/v1/projects/" + gone, f.key());
        assertEquals(404, platform.get("/api/v1/projects/" + gone + "/issues", f.key()).status());
        assertEquals(404, platform.get("/api/v1/projects/" + UUID.randomUUID() + "/issues", f.key()).status());
        // A soft-deleted project cannot be given to a new issue either.
        var response = platform.post("/api/v1/issues", f.key(), "{\"kind\": \"task\", \"title\": \"t\", \"project_id\": \"" + gone + "\"}");
        assertEquals("/project_id", Fixtures.pointer(response));
    }

    @Test
    void idsOfAnotherWorkspaceAreNotFoundOrRejected(TestPlatform platform) {
        Fixtures other = Fixtures.workspace(platform, "elsewhere");
        UUID theirProject = other.project("theirs");
        UUID theirCycle = other.cycle(theirProject);
        UUID theirTask = other.task("their task");
        UUID theirTicket = other.ticket("their ticket");
        for (UUID id : List.of(theirTask, theirTicket)) {
            assertEquals(404, platform.get("/api/v1/issues/" + id, f.key()).status());
            assertEquals(404, platform.patch("/api/v1/issues/" + id, f.key(), "{\"title\": \"mine\"}").status());
            assertEquals(404, platform.delete("/api/v1/issues/" + id, f.key()).status());
            assertEquals(404, platform.get("/api/v1/issues/" + id + "/comments", f.key()).status());
            assertEquals(404, platform.post("/api/v1/issues/" + id + "/comments", f.key(), "{\"body\": \"hi\"}").status());
        }
        assertEquals(404, platform.get("/api/v1/projects/" + theirProject + "/issues", f.key()).status());
        assertEquals("/project_id", Fixtures.pointer(platform.post("/api/v1/issues", f.key(),
                "{\"kind\": \"task\", \"title\": \"t\", \"project_id\": \"" + theirProject + "\"}")));
        assertEquals("/cycle_id", Fixtures.pointer(platform.post("/api/v1/issues", f.key(),
                "{\"kind\": \"task\", \"title\": \"t\", \"project_id\": \"" + project + "\", \"cycle_id\": \"" + theirCycle + "\"}")));
        assertEquals("/parent_id", Fixtures.pointer(platform.post("/api/v1/issues", f.key(),
                "{\"kind\": \"task\", \"title\": \"t\", \"parent_id\": \"" + theirTask + "\"}")));
        assertEquals(0, platform.get("/api/v1/issues?project_id=" + theirProject, f.key()).data().size());
        assertEquals("their task", other.get(theirTask).path("title").asText());
        assertEquals(1, platform.get("/api/v1/issues/" + theirTicket, other.key()).status() == 200 ? 1 : 0);
    }

    @Test
    void scopesAreChecked(TestPlatform platform) {
        UUID task = f.task("scoped");
        String read = platform.key(f.ws(), "issues.read");
        String write = platform.key(f.ws(), "issues.write");
        assertEquals(401, platform.get("/api/v1/issues", null).status());
        assertEquals(403, platform.get("/api/v1/issues", write).status());
        assertEquals(403, platform.get("/api/v1/issues/" + task, write).status());
        assertEquals(403, platform.get("/api/v1/issues/labels", write).status());
        assertEquals(403, platform.get("/api/v1/issues/" + task + "/comments", write).status());
        assertEquals(403, platform.get("/api/v1/projects/" + project + "/issues", write).status());
        assertEquals(403, platform.post("/api/v1/issues", read, "{\"kind\": \"task\", \"title\": \"t\"}").status());
        assertEquals(403, platform.patch("/api/v1/issues/" + task, read, "{\"title\": \"t\"}").status());
        assertEquals(403, platform.delete("/api/v1/issues/" + task, read).status());
        assertEquals(403, platform.post("/api/v1/issues/" + task + "/comments", read, "{\"body\": \"b\"}").status());
        assertEquals(403, platform.post("/api/v1/issues/labels", read, "{\"name\": \"n\"}").status());
        assertEquals(403, platform.post("/api/v1/issues/bulk-update", read,
                "{\"issueIds\": [\"" + task + "\"], \"patch\": {\"priority\": \"low\"}}").status());
        assertEquals(403, platform.get("/api/v1/projects", read).status());
        assertEquals(200, platform.get("/api/v1/issues/" + task, read).status());
    }

    @Test
    void writesPublishEventsOfTheirKind(TestPlatform platform) {
        Fixtures g = Fixtures.workspace(platform, "issue events");
        UUID task = g.task("t");
        UUID ticket = g.ticket("t");
        platform.patch("/api/v1/issues/" + task, g.key(), "{\"status\": \"done\"}");
        platform.patch("/api/v1/issues/" + ticket, g.key(), "{\"status\": \"open\"}");
        platform.post("/api/v1/issues/" + ticket + "/comments", g.key(), "{\"body\": \"hello\"}");
        platform.delete("/api/v1/issues/" + task, g.key());
        platform.delete("/api/v1/issues/" + ticket, g.key());
        var events = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT event_name FROM lnp_core.outbox WHERE workspace_id = :ws AND event_name LIKE 'issues.%' ORDER BY seq")
                .bind("ws", g.ws()).mapTo(String.class).list());
        assertEquals(List.of("issues.task.created", "issues.ticket.created", "issues.task.updated",
                "issues.ticket.updated", "issues.comment.created", "issues.task.deleted"), events);
    }

    private static List<String> ids(TestPlatform platform, String path, String key) {
        var response = platform.get(path, key);
        assertEquals(200, response.status(), response.body());
        List<String> ids = new ArrayList<>();
        response.data().forEach(i -> ids.add(i.path("id").asText()));
        return ids;
    }

    private static int count(TestPlatform platform, String table, UUID id) {
        return platform.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM issues." + table + " WHERE id = :id")
                .bind("id", id).mapTo(Integer.class).one());
    }
}
