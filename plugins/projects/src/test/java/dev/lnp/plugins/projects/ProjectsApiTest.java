package dev.lnp.plugins.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

@PlatformTest(plugins = "projects")
class ProjectsApiTest {

    private static UUID ws;
    private static UUID otherWs;
    private static String key;
    private static String otherKey;

    @BeforeAll
    static void workspaces(TestPlatform platform) {
        ws = platform.createWorkspace("projects");
        otherWs = platform.createWorkspace("other");
        key = platform.key(ws, "projects.read", "projects.write");
        otherKey = platform.key(otherWs, "projects.read", "projects.write");
    }

    static UUID create(TestPlatform platform, String key, String json) {
        TestResponse response = platform.post("/api/v1/projects", key, json);
        assertEquals(201, response.status(), response.body());
        return UUID.fromString(response.data().path("id").asText());
    }

    @Test
    void createStoresEveryAcceptedFieldAndAnswers201WithData(TestPlatform platform) {
        UUID team = UUID.randomUUID();
        var response = platform.post("/api/v1/projects", key, """
                {"name": "Apollo", "description": "to the moon", "status": "active", "priority": "high",
                 "progress": 12.5, "start_date": "2025-01-01", "end_date": "2025-06-30", "team_id": "%s",
                 "lead_user_id": "%s", "template_id": "%s", "company_id": "%s",
                 "github_url": "https://github.com/acme/apollo", "external_id": "EXT-1", "hosted": true}
                """.formatted(team, platform.workspaces().addUser(ws, "lead-" + UUID.randomUUID() + "@example.com",
                "member"), UUID.randomUUID(), UUID.randomUUID()));
        assertEquals(201, response.status(), response.body());
        JsonNode p = response.data();
        assertEquals("Apollo", p.path("name").asText());
        assertEquals("to the moon", p.path("description").asText());
        assertEquals("active", p.path("status").asText());
        assertEquals("high", p.path("priority").asText());
        assertEquals(12.5, p.path("progress").asDouble());
        assertEquals("2025-01-01", p.path("start_date").asText());
        assertEquals("2025-06-30", p.path("end_date").asText());
        assertEquals(team.toString(), p.path("team_id").asText());
        assertEquals("https://github.com/acme/apollo", p.path("github_url").asText());
        assertEquals("EXT-1", p.path("external_id").asText());
        assertTrue(p.path("hosted").asBoolean());
        assertNotNull(p.path("created_at").textValue());

        var fetched = platform.get("/api/v1/projects/" + p.path("id").asText(), key);
        assertEquals(200, fetched.status(), fetched.body());
        assertEquals(p, fetched.data());
    }

    @Test
    void withoutTheCrmModuleNoDealCanBeNamed(TestPlatform platform) {
        var response = platform.post("/api/v1/projects", key, "{\"name\": \"a\", \"deal_id\": \""
                + UUID.randomUUID() + "\"}");
        assertEquals(422, response.status(), response.body());
        var error = response.json().path("errors").path(0);
        assertEquals("/deal_id", error.path("pointer").asText());
        assertTrue(error.path("message").asText().contains("CRM module is not installed"), response.body());
    }

    @Test
    void defaultsArePlannedAndNotHosted(TestPlatform platform) {
        var response = platform.post("/api/v1/projects", key, "{\"name\": \"Minimal\"}");
        assertEquals(201, response.status(), response.body());
        assertEquals("planned", response.data().path("status").asText());
        assertFalse(response.data().path("hosted").asBoolean());
        assertTrue(response.data().path("priority").isNull());
    }

    static Stream<Arguments> invalidCreateFields() {
        String uuid = UUID.randomUUID().toString();
        return Stream.of(
                Arguments.of("{}", "/name"),
                Arguments.of("{\"name\": \"\"}", "/name"),
                Arguments.of("{\"name\": \"" + "x".repeat(201) + "\"}", "/name"),
                Arguments.of("{\"name\": 5}", "/name"),
                Arguments.of("{\"name\": \"a\", \"target_date\": \"2025-01-01\"}", "/target_date"),
                Arguments.of("{\"name\": \"a\", \"color\": \"red\"}", "/color"),
                Arguments.of("{\"name\": \"a\", \"description\": \"" + "d".repeat(10001) + "\"}", "/description"),
                Arguments.of("{\"name\": \"a\", \"status\": \"finished\"}", "/status"),
                Arguments.of("{\"name\": \"a\", \"status\": \"Active\"}", "/status"),
                Arguments.of("{\"name\": \"a\", \"priority\": \"none\"}", "/priority"),
                Arguments.of("{\"name\": \"a\", \"priority\": \"HIGH\"}", "/priority"),
                Arguments.of("{\"name\": \"a\", \"progress\": 101}", "/progress"),
                Arguments.of("{\"name\": \"a\", \"progress\": -1}", "/progress"),
                Arguments.of("{\"name\": \"a\", \"progress\": \"50\"}", "/progress"),
                Arguments.of("{\"name\": \"a\", \"start_date\": \"2025-13-01\"}", "/start_date"),
                Arguments.of("{\"name\": \"a\", \"end_date\": \"01/02/2025\"}", "/end_date"),
                Arguments.of("{\"name\": \"a\", \"team_id\": \"team-1\"}", "/team_id"),
                Arguments.of("{\"name\": \"a\", \"lead_user_id\": \"42\"}", "/lead_user_id"),
                Arguments.of("{\"name\": \"a\", \"template_id\": \"" + uuid + "x\"}", "/template_id"),
                Arguments.of("{\"name\": \"a\", \"deal_id\": 7}", "/deal_id"),
                Arguments.of("{\"name\": \"a\", \"company_id\": \"acme\"}", "/company_id"),
                Arguments.of("{\"name\": \"a\", \"github_url\": \"ftp://github.com/x\"}", "/github_url"),
                Arguments.of("{\"name\": \"a\", \"github_url\": \"not a url\"}", "/github_url"),
                Arguments.of("{\"name\": \"a\", \"github_url\": \"https://github.com/" + "x".repeat(490) + "\"}",
                        "/github_url"),
                Arguments.of("{\"name\": \"a\", \"external_id\": \"" + "e".repeat(256) + "\"}", "/external_id"),
                Arguments.of("{\"name\": \"a\", \"hosted\": \"yes\"}", "/hosted"),
                Arguments.of("{\"name\": \"a\", \"start_date\": \"2025-02-01\", \"end_date\": \"2025-01-31\"}",
                        "/end_date"));
    }

    @ParameterizedTest
    @MethodSource("invalidCreateFields")
    void createRejectsEachBrokenRuleNamingTheField(String body, String pointer, TestPlatform platform) {
        var response = platform.post("/api/v1/projects", key, body);
        assertEquals(422, response.status(), response.body());
        assertTrue(response.header("Content-Type").orElseThrow().startsWith("application/problem+json"));
        assertEquals(pointer, response.json().path("errors").get(0).path("pointer").asText(), response.body());
    }

    @Test
    void unknownTargetDateCarriesAHint(TestPlatform platform) {
        var response = platform.post("/api/v1/projects", key, "{\"name\": \"a\", \"target_date\": \"2025-01-01\"}");
        assertEquals(422, response.status());
        assertTrue(response.json().path("errors").get(0).path("message").asText().contains("end_date"),
                response.body());
    }

    @Test
    void anUnknownStatusIsRejectedListingTheAcceptedValues(TestPlatform platform) {
        var response = platform.post("/api/v1/projects", key, "{\"name\": \"a\", \"status\": \"finished\"}");
        assertEquals(422, response.status());
        String message = response.json().path("errors").get(0).path("message").asText();
        for (String accepted : new String[] {"planned", "active", "paused", "completed", "cancelled", "in_progress"}) {
            assertTrue(message.contains(accepted), message);
        }
    }

    @ParameterizedTest
    @CsvSource({"in_progress,active", "on_hold,paused", "done,completed", "not_started,planned",
            "backlog,planned", "canceled,cancelled", "archived,completed", "active,active", "cancelled,cancelled"})
    void legacyStatusKeysAreStoredAndShownAsTheCurrentKey(String sent, String shown, TestPlatform platform) {
        var created = platform.post("/api/v1/projects", key, "{\"name\": \"s\", \"status\": \"" + sent + "\"}");
        assertEquals(201, created.status(), created.body());
        assertEquals(shown, created.data().path("status").asText());
        String id = created.data().path("id").asText();
        assertEquals(shown, platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT status FROM projects.projects WHERE id = CAST(:id AS uuid)").bind("id", id)
                .mapTo(String.class).one()));

        var patched = platform.patch("/api/v1/projects/" + id, key, "{\"status\": \"on_hold\"}");
        assertEquals(200, patched.status(), patched.body());
        assertEquals("paused", patched.data().path("status").asText());
        assertEquals("paused", platform.get("/api/v1/projects/" + id, key).data().path("status").asText());
    }

    @Test
    void equalStartAndEndDatesAreAccepted(TestPlatform platform) {
        create(platform, key, "{\"name\": \"d\", \"start_date\": \"2025-03-01\", \"end_date\": \"2025-03-01\"}");
    }

    @Test
    void patchChecksDatesAgainstTheStoredOtherDate(TestPlatform platform) {
        UUID id = create(platform, key, "{\"name\": \"d\", \"start_date\": \"2025-03-01\", \"end_date\": \"2025-03-31\"}");
        var earlyEnd = platform.patch("/api/v1/projects/" + id, key, "{\"end_date\": \"2025-02-28\"}");
        assertEquals(422, earlyEnd.status(), earlyEnd.body());
        assertEquals("/end_date", earlyEnd.json().path("errors").get(0).path("pointer").asText());

        var lateStart = platform.patch("/api/v1/projects/" + id, key, "{\"start_date\": \"2025-04-01\"}");
        assertEquals(422, lateStart.status(), lateStart.body());
        assertEquals("/end_date", lateStart.json().path("errors").get(0).path("pointer").asText());

        var both = platform.patch("/api/v1/projects/" + id, key,
                "{\"start_date\": \"2025-04-01\", \"end_date\": \"2025-04-30\"}");
        assertEquals(200, both.status(), both.body());

        var cleared = platform.patch("/api/v1/projects/" + id, key, "{\"end_date\": null}");
        assertEquals(200, cleared.status(), cleared.body());
        assertTrue(cleared.data().path("end_date").isNull());
        assertEquals(200, platform.patch("/api/v1/projects/" + id, key, "{\"start_date\": \"2030-01-01\"}").status());
    }

    @Test
    void patchNeedsAtLeastOneKnownFieldAndKeepsOthers(TestPlatform platform) {
        UUID id = create(platform, key, "{\"name\": \"p\", \"priority\": \"low\", \"description\": \"keep\"}");
        assertEquals(422, platform.patch("/api/v1/projects/" + id, key, "{}").status());
        var unknown = platform.patch("/api/v1/projects/" + id, key, "{\"target_date\": \"2025-01-01\"}");
        assertEquals(422, unknown.status());
        assertEquals("/target_date", unknown.json().path("errors").get(0).path("pointer").asText());
        var nullName = platform.patch("/api/v1/projects/" + id, key, "{\"name\": null}");
        assertEquals(422, nullName.status());
        assertEquals("/name", nullName.json().path("errors").get(0).path("pointer").asText());

        var patched = platform.patch("/api/v1/projects/" + id, key, "{\"priority\": \"urgent\", \"progress\": 100}");
        assertEquals(200, patched.status(), patched.body());
        assertEquals("urgent", patched.data().path("priority").asText());
        assertEquals(100, patched.data().path("progress").asInt());
        assertEquals("keep", patched.data().path("description").asText());
        assertEquals("p", patched.data().path("name").asText());
    }

    @Test
    void deleteIsSoftAndAnOperatorCanRestore(TestPlatform platform) {
        UUID id = create(platform, key, "{\"name\": \"to delete\"}");
        var deleted = platform.delete("/api/v1/projects/" + id, key);
        assertEquals(200, deleted.status(), deleted.body());
        assertEquals(id.toString(), deleted.data().path("id").asText());
        assertTrue(deleted.data().path("deleted").asBoolean());

        assertEquals(404, platform.get("/api/v1/projects/" + id, key).status());
        assertEquals(404, platform.patch("/api/v1/projects/" + id, key, "{\"name\": \"x\"}").status());
        assertEquals(404, platform.delete("/api/v1/projects/" + id, key).status());
        assertFalse(listedIds(platform, key).contains(id.toString()));
        assertEquals(Integer.valueOf(1), platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM projects.projects WHERE id = :id AND deleted_at IS NOT NULL")
                .bind("id", id).mapTo(Integer.class).one()));

        // The restore documented in docs/projects-and-issues.md.
        platform.jdbi().useHandle(h -> h.createUpdate("UPDATE projects.projects SET deleted_at = NULL WHERE id = :id")
                .bind("id", id).execute());
        assertEquals(200, platform.get("/api/v1/projects/" + id, key).status());
    }

    private static String listedIds(TestPlatform platform, String key) {
        var list = platform.get("/api/v1/projects?limit=100", key);
        assertEquals(200, list.status(), list.body());
        return list.data().toString();
    }

    @Test
    void listIsPaginatedAndScopedToTheWorkspace(TestPlatform platform) {
        UUID a = platform.createWorkspace("list");
        String k = platform.key(a, "projects.read", "projects.write");
        for (int i = 0; i < 3; i++) {
            create(platform, k, "{\"name\": \"n" + i + "\"}");
        }
        var page = platform.get("/api/v1/projects?page=2&limit=2", k);
        assertEquals(200, page.status(), page.body());
        assertEquals(1, page.data().size());
        JsonNode pagination = page.json().path("pagination");
        assertEquals(3, pagination.path("total").asInt());
        assertEquals(2, pagination.path("page").asInt());
        assertEquals(2, pagination.path("limit").asInt());
        assertFalse(pagination.path("hasMore").asBoolean());
        assertEquals(400, platform.get("/api/v1/projects?limit=101", k).status());
        assertEquals(400, platform.get("/api/v1/projects?page=0", k).status());
        assertEquals(400, platform.get("/api/v1/projects?per_page=10", k).status());
        assertEquals(0, platform.get("/api/v1/projects", platform.key(platform.createWorkspace("empty"),
                "projects.read")).json().path("pagination").path("total").asInt());
    }

    @Test
    void aProjectOfAnotherWorkspaceIsNotFoundEverywhere(TestPlatform platform) {
        UUID theirs = create(platform, otherKey, "{\"name\": \"theirs\"}");
        assertEquals(404, platform.get("/api/v1/projects/" + theirs, key).status());
        assertEquals(404, platform.patch("/api/v1/projects/" + theirs, key, "{\"name\": \"mine\"}").status());
        assertEquals(404, platform.delete("/api/v1/projects/" + theirs, key).status());
        assertEquals(404, platform.get("/api/v1/projects/" + theirs + "/cycles", key).status());
        assertEquals(404, platform.post("/api/v1/projects/" + theirs + "/cycles", key,
                "{\"name\": \"c\", \"start_date\": \"2025-01-01\", \"end_date\": \"2025-01-14\"}").status());
        assertFalse(listedIds(platform, key).contains(theirs.toString()));
        assertEquals("theirs", platform.get("/api/v1/projects/" + theirs, otherKey).data().path("name").asText());
        assertEquals(400, platform.get("/api/v1/projects/not-a-uuid", key).status(), "a malformed id is the request's fault");
    }

    @Test
    void scopesAreChecked(TestPlatform platform) {
        UUID id = create(platform, key, "{\"name\": \"scoped\"}");
        String readOnly = platform.key(ws, "projects.read");
        String writeOnly = platform.key(ws, "projects.write");
        assertEquals(401, platform.get("/api/v1/projects", null).status());
        assertEquals(403, platform.post("/api/v1/projects", readOnly, "{\"name\": \"x\"}").status());
        assertEquals(403, platform.patch("/api/v1/projects/" + id, readOnly, "{\"name\": \"x\"}").status());
        assertEquals(403, platform.delete("/api/v1/projects/" + id, readOnly).status());
        assertEquals(403, platform.post("/api/v1/projects/" + id + "/cycles", readOnly,
                "{\"name\": \"c\", \"start_date\": \"2025-01-01\", \"end_date\": \"2025-01-14\"}").status());
        assertEquals(403, platform.get("/api/v1/projects", writeOnly).status());
        assertEquals(403, platform.get("/api/v1/projects/" + id + "/cycles", writeOnly).status());
        assertEquals(200, platform.get("/api/v1/projects/" + id, readOnly).status());
    }

    @Test
    void writesPublishTheirEventsInTheSameTransaction(TestPlatform platform) {
        UUID w = platform.createWorkspace("events");
        String k = platform.key(w, "projects.read", "projects.write");
        UUID id = create(platform, k, "{\"name\": \"evented\"}");
        platform.patch("/api/v1/projects/" + id, k, "{\"status\": \"done\"}");
        platform.post("/api/v1/projects/" + id + "/cycles", k,
                "{\"name\": \"c\", \"start_date\": \"2025-01-01\", \"end_date\": \"2025-01-14\"}");
        platform.delete("/api/v1/projects/" + id, k);
        // A rejected write leaves no event behind.
        platform.post("/api/v1/projects", k, "{\"name\": \"x\", \"start_date\": \"2025-02-01\", \"end_date\": \"2025-01-01\"}");
        var events = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT event_name FROM lnp_core.outbox WHERE workspace_id = :ws ORDER BY seq")
                .bind("ws", w).mapTo(String.class).list());
        assertEquals(java.util.List.of("projects.project.created", "projects.project.updated",
                "projects.cycle.created", "projects.project.deleted"), events);
        String payloadStatus = platform.jdbi().withHandle(h -> h.createQuery(
                "SELECT payload->>'status' FROM lnp_core.outbox WHERE workspace_id = :ws AND event_name = 'projects.project.updated'")
                .bind("ws", w).mapTo(String.class).one());
        assertEquals("completed", payloadStatus);
    }
}
