package dev.lnp.plugins.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@PlatformTest(plugins = "projects")
class PlanningAllocationsTest {

    private static final String PATH = "/api/v1/planning/allocations";
    private static UUID ws;
    private static String key;
    private static UUID project;
    private static final UUID USER = UUID.randomUUID();

    @BeforeAll
    static void project(TestPlatform platform) {
        ws = platform.createWorkspace("planning");
        key = platform.key(ws, "projects.write", "planning.read", "planning.write");
        project = ProjectsApiTest.create(platform, key, "{\"name\": \"planned work\"}");
    }

    private static String body(String extra) {
        return "{\"user_id\": \"" + USER + "\", \"project_id\": \"" + project
                + "\", \"start_date\": \"2025-01-06\", \"end_date\": \"2025-01-10\"" + extra + "}";
    }

    @Test
    void createsAnAllocationAndListsIt(TestPlatform platform) {
        var created = platform.post(PATH, key, body(", \"hours_per_day\": 4, \"note\": \"half days\""));
        assertEquals(201, created.status(), created.body());
        assertEquals(USER.toString(), created.data().path("user_id").asText());
        assertEquals(project.toString(), created.data().path("project_id").asText());
        assertEquals(4, created.data().path("hours_per_day").asInt());
        assertTrue(created.data().path("percentage").isNull());
        assertEquals(platform.principal(key).actorId().toString(), created.data().path("created_by").asText());

        var pct = platform.post(PATH, key, body(", \"percentage\": 50"));
        assertEquals(201, pct.status(), pct.body());

        var list = platform.get(PATH + "?user_id=" + USER + "&project_id=" + project, key);
        assertEquals(200, list.status(), list.body());
        assertTrue(list.json().path("pagination").path("total").asInt() >= 2);
        assertEquals(0, platform.get(PATH + "?user_id=" + UUID.randomUUID(), key)
                .json().path("pagination").path("total").asInt());
        assertEquals(Integer.valueOf(1), platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM lnp_core.outbox WHERE workspace_id = :ws AND event_name = 'planning.allocation.created'"
                        + " AND payload->>'id' = :id")
                .bind("ws", ws).bind("id", created.data().path("id").asText()).mapTo(Integer.class).one()));
    }

    /** Probe defect 2: the list answered 500 unless both filters were given. */
    @ParameterizedTest
    @ValueSource(strings = {"", "?project_id=P", "?user_id=U", "?user_id=U&project_id=P"})
    void listsWithAnyCombinationOfFilters(String query, TestPlatform platform) {
        assertEquals(201, platform.post(PATH, key, body(", \"hours_per_day\": 2")).status());
        var list = platform.get(PATH + query.replace("P", project.toString()).replace("U", USER.toString()), key);
        assertEquals(200, list.status(), list.body());
        assertTrue(list.json().path("pagination").path("total").asInt() >= 1, list.body());
        assertTrue(list.json().path("data").size() >= 1, list.body());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "/user_id|{\"project_id\": \"P\", \"start_date\": \"2025-01-06\", \"end_date\": \"2025-01-10\", \"hours_per_day\": 4}",
            "/user_id|{\"user_id\": \"someone\", \"project_id\": \"P\", \"start_date\": \"2025-01-06\", \"end_date\": \"2025-01-10\", \"hours_per_day\": 4}",
            "/project_id|{\"user_id\": \"U\", \"start_date\": \"2025-01-06\", \"end_date\": \"2025-01-10\", \"hours_per_day\": 4}",
            "/project_id|{\"user_id\": \"U\", \"project_id\": \"X\", \"start_date\": \"2025-01-06\", \"end_date\": \"2025-01-10\", \"hours_per_day\": 4}",
            "/start_date|{\"user_id\": \"U\", \"project_id\": \"P\", \"end_date\": \"2025-01-10\", \"hours_per_day\": 4}",
            "/end_date|{\"user_id\": \"U\", \"project_id\": \"P\", \"start_date\": \"2025-01-06\", \"hours_per_day\": 4}",
            "/end_date|{\"user_id\": \"U\", \"project_id\": \"P\", \"start_date\": \"2025-01-06\", \"end_date\": \"2025-01-05\", \"hours_per_day\": 4}",
            "/hours_per_day|{\"user_id\": \"U\", \"project_id\": \"P\", \"start_date\": \"2025-01-06\", \"end_date\": \"2025-01-10\"}",
            "/percentage|{\"user_id\": \"U\", \"project_id\": \"P\", \"start_date\": \"2025-01-06\", \"end_date\": \"2025-01-10\", \"hours_per_day\": 4, \"percentage\": 50}",
            "/hours_per_day|{\"user_id\": \"U\", \"project_id\": \"P\", \"start_date\": \"2025-01-06\", \"end_date\": \"2025-01-10\", \"hours_per_day\": 0}",
            "/hours_per_day|{\"user_id\": \"U\", \"project_id\": \"P\", \"start_date\": \"2025-01-06\", \"end_date\": \"2025-01-10\", \"hours_per_day\": 24.5}",
            "/percentage|{\"user_id\": \"U\", \"project_id\": \"P\", \"start_date\": \"2025-01-06\", \"end_date\": \"2025-01-10\", \"percentage\": 0}",
            "/percentage|{\"user_id\": \"U\", \"project_id\": \"P\", \"start_date\": \"2025-01-06\", \"end_date\": \"2025-01-10\", \"percentage\": 100.5}",
            "/note|{\"user_id\": \"U\", \"project_id\": \"P\", \"start_date\": \"2025-01-06\", \"end_date\": \"2025-01-10\", \"percentage\": 10, \"note\": \"NOTE\"}",
            "/hours|{\"user_id\": \"U\", \"project_id\": \"P\", \"start_date\": \"2025-01-06\", \"end_date\": \"2025-01-10\", \"hours\": 3}"})
    void rejectsEachBrokenRule(String testCase, TestPlatform platform) {
        String pointer = testCase.substring(0, testCase.indexOf('|'));
        String body = testCase.substring(testCase.indexOf('|') + 1)
                .replace("\"P\"", "\"" + project + "\"")
                .replace("\"U\"", "\"" + USER + "\"")
                .replace("\"X\"", "\"" + UUID.randomUUID() + "\"")
                .replace("NOTE", "n".repeat(1001));
        var response = platform.post(PATH, key, body);
        assertEquals(422, response.status(), response.body());
        assertEquals(pointer, response.json().path("errors").get(0).path("pointer").asText(), response.body());
    }

    @Test
    void aProjectOfAnotherWorkspaceOrSoftDeletedIsRejected(TestPlatform platform) {
        UUID other = platform.createWorkspace("other planning");
        UUID theirs = ProjectsApiTest.create(platform, platform.key(other, "projects.write"), "{\"name\": \"theirs\"}");
        var response = platform.post(PATH, key, body(", \"hours_per_day\": 1").replace(project.toString(), theirs.toString()));
        assertEquals(422, response.status(), response.body());
        assertEquals("/project_id", response.json().path("errors").get(0).path("pointer").asText());

        UUID gone = ProjectsApiTest.create(platform, key, "{\"name\": \"gone\"}");
        platform.delete("/api/v1/projects/" + gone, key);
        var deleted = platform.post(PATH, key, body(", \"hours_per_day\": 1").replace(project.toString(), gone.toString()));
        assertEquals(422, deleted.status(), deleted.body());
    }

    @Test
    void withoutTheIssuesPluginAnIssueCannotBeNamed(TestPlatform platform) {
        var response = platform.post(PATH, key, body(", \"hours_per_day\": 1, \"issue_id\": \"" + UUID.randomUUID() + "\""));
        assertEquals(422, response.status(), response.body());
        assertEquals("/issue_id", response.json().path("errors").get(0).path("pointer").asText());
    }

    @Test
    void planningScopesAreChecked(TestPlatform platform) {
        assertEquals(403, platform.post(PATH, platform.key(ws, "planning.read", "projects.write"),
                body(", \"hours_per_day\": 1")).status());
        assertEquals(403, platform.get(PATH, platform.key(ws, "planning.write")).status());
        assertEquals(401, platform.post(PATH, null, body(", \"hours_per_day\": 1")).status());
    }
}
