package dev.lnp.plugins.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@PlatformTest(plugins = "projects")
class CyclesApiTest {

    private static String key;
    private static UUID project;

    @BeforeAll
    static void project(TestPlatform platform) {
        UUID ws = platform.createWorkspace("cycles");
        key = platform.key(ws, "projects.read", "projects.write");
        project = ProjectsApiTest.create(platform, key, "{\"name\": \"with cycles\"}");
    }

    private static String cycles(UUID projectId) {
        return "/api/v1/projects/" + projectId + "/cycles";
    }

    @Test
    void createsACycleInThePathProjectAndListsItPaginated(TestPlatform platform) {
        UUID p = ProjectsApiTest.create(platform, key, "{\"name\": \"p\"}");
        var created = platform.post(cycles(p), key,
                "{\"name\": \"Sprint 1\", \"start_date\": \"2025-01-01\", \"end_date\": \"2025-01-14\"}");
        assertEquals(201, created.status(), created.body());
        assertEquals(p.toString(), created.data().path("project_id").asText());
        assertEquals("upcoming", created.data().path("status").asText());
        assertEquals("2025-01-14", created.data().path("end_date").asText());
        platform.post(cycles(p), key, "{\"name\": \"Sprint 2\", \"start_date\": \"2025-01-15\","
                + " \"end_date\": \"2025-01-28\", \"status\": \"active\"}");

        var page = platform.get(cycles(p) + "?limit=1&page=2", key);
        assertEquals(200, page.status(), page.body());
        assertEquals(2, page.json().path("pagination").path("total").asInt());
        assertEquals("Sprint 2", page.data().get(0).path("name").asText());
        assertEquals("active", page.data().get(0).path("status").asText());
        // Another project's list does not show them.
        assertEquals(0, platform.get(cycles(project) + "?limit=100", key).data().findValuesAsText("project_id")
                .stream().filter(p.toString()::equals).count());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"start_date\": \"2025-01-01\", \"end_date\": \"2025-01-14\"}|/name",
            "{\"name\": \"\", \"start_date\": \"2025-01-01\", \"end_date\": \"2025-01-14\"}|/name",
            "{\"name\": \"c\", \"end_date\": \"2025-01-14\"}|/start_date",
            "{\"name\": \"c\", \"start_date\": \"2025-01-01\"}|/end_date",
            "{\"name\": \"c\", \"start_date\": \"2025-1-1\", \"end_date\": \"2025-01-14\"}|/start_date",
            "{\"name\": \"c\", \"start_date\": \"2025-01-15\", \"end_date\": \"2025-01-14\"}|/end_date",
            "{\"name\": \"c\", \"start_date\": \"2025-01-01\", \"end_date\": \"2025-01-14\", \"status\": \"done\"}|/status",
            "{\"name\": \"c\", \"start_date\": \"2025-01-01\", \"end_date\": \"2025-01-14\", \"goal\": \"x\"}|/goal",
            "{\"name\": \"c\", \"start_date\": \"2025-01-01\", \"end_date\": \"2025-01-14\", \"project_id\": \"00000000-0000-0000-0000-000000000000\"}|/project_id"})
    void rejectsEachBrokenRule(String body, String pointer, TestPlatform platform) {
        var response = platform.post(cycles(project), key, body);
        assertEquals(422, response.status(), response.body());
        assertEquals(pointer, response.json().path("errors").get(0).path("pointer").asText(), response.body());
    }

    @ParameterizedTest
    @CsvSource({
            "2025-03-10, 2025-03-20, inside",
            "2025-02-25, 2025-03-01, ends on its first day",
            "2025-03-14, 2025-03-30, starts on its last day",
            "2025-02-01, 2025-04-01, around it"})
    void cyclesOfOneProjectMayNotOverlap(String start, String end, String how, TestPlatform platform) {
        UUID p = ProjectsApiTest.create(platform, key, "{\"name\": \"overlaps " + how + "\"}");
        var first = platform.post(cycles(p), key,
                "{\"name\": \"March\", \"start_date\": \"2025-03-01\", \"end_date\": \"2025-03-14\"}");
        assertEquals(201, first.status(), first.body());
        var overlapping = platform.post(cycles(p), key,
                "{\"name\": \"c\", \"start_date\": \"" + start + "\", \"end_date\": \"" + end + "\"}");
        assertEquals(409, overlapping.status(), how + ": " + overlapping.body());
        assertEquals("cycle_overlap", overlapping.json().path("code").asText());
        assertEquals("/start_date", overlapping.json().path("errors").get(0).path("pointer").asText());
        String detail = overlapping.json().path("detail").asText();
        org.junit.jupiter.api.Assertions.assertTrue(detail.contains("\"March\"")
                && detail.contains(first.data().path("id").asText()), detail);
        assertEquals(1, platform.get(cycles(p), key).json().path("pagination").path("total").asInt());
    }

    @Test
    void adjacentCyclesAndCyclesOfOtherProjectsMayShareDates(TestPlatform platform) {
        UUID p = ProjectsApiTest.create(platform, key, "{\"name\": \"adjacent\"}");
        UUID q = ProjectsApiTest.create(platform, key, "{\"name\": \"same dates\"}");
        String march = "{\"name\": \"March\", \"start_date\": \"2025-03-01\", \"end_date\": \"2025-03-14\"}";
        assertEquals(201, platform.post(cycles(p), key, march).status());
        assertEquals(201, platform.post(cycles(q), key, march).status());
        assertEquals(201, platform.post(cycles(p), key,
                "{\"name\": \"next\", \"start_date\": \"2025-03-15\", \"end_date\": \"2025-03-28\"}").status());
    }

    @Test
    void nameIsLimitedTo200Characters(TestPlatform platform) {
        var response = platform.post(cycles(project), key, "{\"name\": \"" + "n".repeat(201)
                + "\", \"start_date\": \"2025-01-01\", \"end_date\": \"2025-01-14\"}");
        assertEquals(422, response.status());
        assertEquals("/name", response.json().path("errors").get(0).path("pointer").asText());
    }

    @Test
    void aSoftDeletedOrUnknownProjectHasNoCycles(TestPlatform platform) {
        UUID p = ProjectsApiTest.create(platform, key, "{\"name\": \"gone\"}");
        platform.delete("/api/v1/projects/" + p, key);
        assertEquals(404, platform.get(cycles(p), key).status());
        assertEquals(404, platform.post(cycles(p), key,
                "{\"name\": \"c\", \"start_date\": \"2025-01-01\", \"end_date\": \"2025-01-14\"}").status());
        assertEquals(404, platform.get(cycles(UUID.randomUUID()), key).status());
    }

    @Test
    void aCycleIsReadAndPatchedByItsId(TestPlatform platform) {
        UUID p = ProjectsApiTest.create(platform, key, "{\"name\": \"by id\"}");
        String id = platform.post(cycles(p), key, "{\"name\": \"One\", \"start_date\": \"2025-05-01\","
                + " \"end_date\": \"2025-05-14\"}").data().path("id").asText();
        platform.post(cycles(p), key, "{\"name\": \"Two\", \"start_date\": \"2025-05-15\", \"end_date\": \"2025-05-28\"}");
        var read = platform.get("/api/v1/cycles/" + id, key);
        assertEquals(200, read.status(), read.body());
        assertEquals("One", read.data().path("name").asText());
        var patched = platform.patch("/api/v1/cycles/" + id, key, "{\"name\": \"First\", \"status\": \"active\","
                + " \"end_date\": \"2025-05-10\"}");
        assertEquals(200, patched.status(), patched.body());
        assertEquals("First", patched.data().path("name").asText());
        assertEquals("active", patched.data().path("status").asText());
        assertEquals("2025-05-10", patched.data().path("end_date").asText());
        // Its own dates never overlap itself; another cycle's do.
        assertEquals(200, platform.patch("/api/v1/cycles/" + id, key, "{\"start_date\": \"2025-05-02\"}").status());
        var overlap = platform.patch("/api/v1/cycles/" + id, key, "{\"end_date\": \"2025-05-15\"}");
        assertEquals(409, overlap.status(), overlap.body());
        assertEquals("cycle_overlap", overlap.json().path("code").asText());
        assertEquals(Integer.valueOf(1), platform.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM lnp_core.outbox"
                + " WHERE event_name = 'projects.cycle.updated' AND payload->>'id' = :id AND payload->>'name' = 'First'"
                + " AND payload->>'start_date' = '2025-05-01'").bind("id", id).mapTo(Integer.class).one()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{}|",
            "{\"name\": null}|/name",
            "{\"status\": \"completed\"}|/status",
            "{\"status\": \"done\"}|/status",
            "{\"end_date\": \"2024-12-31\"}|/end_date",
            "{\"project_id\": \"00000000-0000-0000-0000-000000000000\"}|/project_id"})
    void aPatchBreakingARuleIs422(String body, String pointer, TestPlatform platform) {
        UUID p = ProjectsApiTest.create(platform, key, "{\"name\": \"patch rules\"}");
        String id = platform.post(cycles(p), key, "{\"name\": \"c\", \"start_date\": \"2025-01-01\","
                + " \"end_date\": \"2025-01-14\"}").data().path("id").asText();
        var response = platform.patch("/api/v1/cycles/" + id, key, body);
        assertEquals(422, response.status(), response.body());
        if (pointer != null) {
            assertEquals(pointer, response.json().path("errors").get(0).path("pointer").asText(), response.body());
        }
    }

    @Test
    void aCycleOfAnotherWorkspaceOrOfADeletedProjectIsNotFound(TestPlatform platform) {
        UUID other = platform.createWorkspace("cycles other");
        String theirKey = platform.key(other, "projects.read", "projects.write");
        UUID theirs = ProjectsApiTest.create(platform, theirKey, "{\"name\": \"theirs\"}");
        String cycle = platform.post(cycles(theirs), theirKey, "{\"name\": \"c\", \"start_date\": \"2025-01-01\","
                + " \"end_date\": \"2025-01-14\"}").data().path("id").asText();
        assertEquals(404, platform.get("/api/v1/cycles/" + cycle, key).status());
        assertEquals(404, platform.patch("/api/v1/cycles/" + cycle, key, "{\"name\": \"mine\"}").status());
        assertEquals(404, platform.post("/api/v1/cycles/" + cycle + "/close", key, "{}").status());
        assertEquals("c", platform.get("/api/v1/cycles/" + cycle, theirKey).data().path("name").asText());
        platform.delete("/api/v1/projects/" + theirs, theirKey);
        assertEquals(404, platform.get("/api/v1/cycles/" + cycle, theirKey).status());
    }
}
