package dev.lnp.plugins.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** GET, PATCH and DELETE of one planning allocation. */
@PlatformTest(plugins = "projects")
class AllocationChangesTest {

    private static final String PATH = "/api/v1/planning/allocations";
    private static UUID ws;
    private static String key;
    private static UUID project;

    @BeforeAll
    static void project(TestPlatform platform) {
        ws = platform.createWorkspace("allocation changes");
        key = platform.key(ws, "projects.write", "planning.read", "planning.write");
        project = ProjectsApiTest.create(platform, key, "{\"name\": \"changed plans\"}");
    }

    static UUID allocate(TestPlatform platform, String key, UUID project, UUID user, String extra) {
        TestResponse created = platform.post(PATH, key, "{\"user_id\": \"" + user + "\", \"project_id\": \"" + project
                + "\", \"start_date\": \"2025-01-06\", \"end_date\": \"2025-01-10\"" + extra + "}");
        assertEquals(201, created.status(), created.body());
        return UUID.fromString(created.data().path("id").asText());
    }

    @Test
    void readsPatchesAndDeletesOneAllocation(TestPlatform platform) {
        UUID id = allocate(platform, key, project, UUID.randomUUID(), ", \"hours_per_day\": 4");
        TestResponse read = platform.get(PATH + "/" + id, key);
        assertEquals(200, read.status(), read.body());
        assertEquals(4, read.data().path("hours_per_day").asInt());
        assertTrue(read.data().has("updated_at"), read.body());

        // Sending the other unit switches to it; dates are checked against the stored one left alone.
        TestResponse patched = platform.patch(PATH + "/" + id, key, "{\"percentage\": 50, \"end_date\": \"2025-01-17\","
                + " \"note\": \"two weeks\"}");
        assertEquals(200, patched.status(), patched.body());
        assertEquals(50, patched.data().path("percentage").asInt());
        assertTrue(patched.data().path("hours_per_day").isNull(), patched.body());
        assertEquals("2025-01-17", patched.data().path("end_date").asText());
        assertEquals("two weeks", patched.data().path("note").asText());
        TestResponse cleared = platform.patch(PATH + "/" + id, key, "{\"note\": null}");
        assertTrue(cleared.data().path("note").isNull(), cleared.body());

        TestResponse deleted = platform.delete(PATH + "/" + id, key);
        assertEquals(200, deleted.status(), deleted.body());
        assertTrue(deleted.data().path("deleted").asBoolean());
        assertEquals(404, platform.get(PATH + "/" + id, key).status());
        assertEquals(404, platform.delete(PATH + "/" + id, key).status());
        assertEquals(List.of("planning.allocation.created", "planning.allocation.updated", "planning.allocation.updated",
                "planning.allocation.deleted"), platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT event_name FROM lnp_core.outbox WHERE workspace_id = :ws AND payload->>'id' = :id ORDER BY seq")
                .bind("ws", ws).bind("id", id.toString()).mapTo(String.class).list()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{}|",
            "{\"hours\": 3}|/hours",
            "{\"hours_per_day\": 3, \"percentage\": 10}|/percentage",
            "{\"hours_per_day\": null}|/hours_per_day",
            "{\"hours_per_day\": 25}|/hours_per_day",
            "{\"end_date\": \"2025-01-01\"}|/end_date",
            "{\"start_date\": \"2025-02-01\"}|/end_date",
            "{\"start_date\": null}|/start_date",
            "{\"user_id\": \"someone\"}|/user_id",
            "{\"project_id\": null}|/project_id",
            "{\"project_id\": \"00000000-0000-0000-0000-000000000001\"}|/project_id",
            "{\"issue_id\": \"00000000-0000-0000-0000-000000000001\"}|/issue_id"})
    void aPatchBreakingARuleIs422NamingTheField(String body, String pointer, TestPlatform platform) {
        UUID id = allocate(platform, key, project, UUID.randomUUID(), ", \"hours_per_day\": 4");
        TestResponse response = platform.patch(PATH + "/" + id, key, body);
        assertEquals(422, response.status(), response.body());
        if (pointer != null) {
            assertEquals(pointer, response.json().path("errors").get(0).path("pointer").asText(), response.body());
        }
        assertEquals(4, platform.get(PATH + "/" + id, key).data().path("hours_per_day").asInt(), "nothing changed");
    }

    @Test
    void anotherWorkspacesAllocationIsNotFound(TestPlatform platform) {
        UUID other = platform.createWorkspace("allocation changes other");
        String theirKey = platform.key(other, "projects.write", "planning.read", "planning.write");
        UUID theirs = allocate(platform, theirKey, ProjectsApiTest.create(platform, theirKey, "{\"name\": \"t\"}"),
                UUID.randomUUID(), ", \"percentage\": 20");
        TestResponse get = platform.get(PATH + "/" + theirs, key);
        assertEquals(404, get.status(), get.body());
        TestResponse missing = platform.get(PATH + "/" + UUID.randomUUID(), key);
        assertEquals(missing.json().path("code"), get.json().path("code"));
        assertEquals(missing.json().path("detail"), get.json().path("detail"));
        assertEquals(404, platform.patch(PATH + "/" + theirs, key, "{\"percentage\": 30}").status());
        assertEquals(404, platform.delete(PATH + "/" + theirs, key).status());
        assertEquals(20, platform.get(PATH + "/" + theirs, theirKey).data().path("percentage").asInt(),
                "their allocation is unchanged");
    }

    @Test
    void scopesAreChecked(TestPlatform platform) {
        UUID id = allocate(platform, key, project, UUID.randomUUID(), ", \"hours_per_day\": 1");
        String readOnly = platform.key(ws, "planning.read");
        assertEquals(403, platform.patch(PATH + "/" + id, readOnly, "{\"hours_per_day\": 2}").status());
        assertEquals(403, platform.delete(PATH + "/" + id, readOnly).status());
        assertEquals(403, platform.get(PATH + "/" + id, platform.key(ws, "planning.write")).status());
    }
}
