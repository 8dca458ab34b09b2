package dev.lnp.plugins.projects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Capacity per person per ISO week: over-allocation is accepted and flagged. */
@PlatformTest(plugins = "projects")
class CapacityTest {

    private static final String CAPACITY = "/api/v1/planning/capacity";

    @Test
    void overbookingIsAcceptedAndFlaggedPerWeek(TestPlatform platform) {
        UUID ws = platform.createWorkspace("capacity");
        String key = platform.key(ws, "projects.write", "planning.read", "planning.write");
        UUID project = ProjectsApiTest.create(platform, key, "{\"name\": \"busy\"}");
        UUID person = platform.workspaces().addUser(ws, "busy-" + UUID.randomUUID() + "@example.com", "member");
        // Week 2025-W02 (6 to 12 January): 6 h a day for five days, and 50 % of 40 h: 30 + 20 = 50 h.
        AllocationChangesTest.allocate(platform, key, project, person, ", \"hours_per_day\": 6");
        UUID half = AllocationChangesTest.allocate(platform, key, project, person, ", \"percentage\": 50");

        JsonNode report = read(platform, key, "?from=2025-01-08&to=2025-01-14&user_id=" + person);
        assertEquals("2025-01-06", report.path("start_date").asText(), "widened to whole ISO weeks");
        assertEquals("2025-01-19", report.path("end_date").asText());
        JsonNode weeks = report.path("people").get(0).path("weeks");
        assertEquals(2, weeks.size(), report.toString());
        assertEquals("2025-W02", weeks.get(0).path("week").asText());
        assertEquals(40, weeks.get(0).path("capacity_hours").asInt());
        assertEquals(50, weeks.get(0).path("allocated_hours").asInt());
        assertEquals(-10, weeks.get(0).path("available_hours").asInt());
        assertTrue(weeks.get(0).path("overbooked").asBoolean());
        assertEquals(2, weeks.get(0).path("allocation_ids").size());
        assertEquals(0, weeks.get(1).path("allocated_hours").asInt());
        assertFalse(weeks.get(1).path("overbooked").asBoolean());

        // A person's own weekly hours: 60 h makes the same week fit; the percentage follows (50 % of 60 = 30).
        TestResponse set = put(platform, "/api/v1/planning/capacities/" + person, key, "{\"weekly_hours\": 60}");
        assertEquals(200, set.status(), set.body());
        JsonNode week = read(platform, key, "?from=2025-01-06&to=2025-01-12").path("people").get(0).path("weeks").get(0);
        assertEquals(60, week.path("capacity_hours").asInt());
        assertEquals(60, week.path("allocated_hours").asInt());
        assertFalse(week.path("overbooked").asBoolean(), week.toString());
        assertEquals(200, put(platform, "/api/v1/planning/capacities/" + person, key, "{\"weekly_hours\": null}")
                .status());
        platform.delete("/api/v1/planning/allocations/" + half, key);
        week = read(platform, key, "?from=2025-01-06&to=2025-01-12").path("people").get(0).path("weeks").get(0);
        assertEquals(40, week.path("capacity_hours").asInt());
        assertEquals(30, week.path("allocated_hours").asInt());

        // Filtered to a project nobody is on: no one.
        UUID empty = ProjectsApiTest.create(platform, key, "{\"name\": \"empty\"}");
        assertEquals(0, read(platform, key, "?from=2025-01-06&to=2025-01-12&project_id=" + empty).path("people").size());
        // The tool answers the same report.
        var tool = platform.callTool(key, "planning_capacity", "{\"from\": \"2025-01-06\", \"to\": \"2025-01-12\"}");
        assertEquals(30, dev.lnp.api.Json.mapper().valueToTree(tool.data()).path("people").get(0).path("weeks").get(0)
                .path("allocated_hours").asInt());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "?from=2025-02-01&to=2025-01-01|?to",
            "?from=2025-01-01&to=2026-01-01|?to",
            "?from=2025-13-01|?from",
            "?user_id=someone|?user_id",
            "?weeks=3|?weeks"})
    void badParametersAre400NamingThem(String query, String pointer, TestPlatform platform) {
        UUID ws = platform.createWorkspace("capacity params");
        TestResponse response = platform.get(CAPACITY + query, platform.key(ws, "planning.read"));
        assertEquals(400, response.status(), response.body());
        assertEquals(pointer, response.json().path("errors").get(0).path("pointer").asText(), response.body());
    }

    @Test
    void capacityIsSetOnlyForPeopleOfTheWorkspace(TestPlatform platform) {
        UUID ws = platform.createWorkspace("capacity people");
        String key = platform.key(ws, "planning.read", "planning.write");
        UUID other = platform.createWorkspace("capacity people other");
        UUID theirs = platform.workspaces().addUser(other, "theirs-" + UUID.randomUUID() + "@example.com", "member");
        assertEquals(404, put(platform, "/api/v1/planning/capacities/" + theirs, key, "{\"weekly_hours\": 20}").status());
        assertEquals(404, put(platform, "/api/v1/planning/capacities/" + UUID.randomUUID(), key,
                "{\"weekly_hours\": 20}").status());
        UUID mine = platform.workspaces().addUser(ws, "mine-" + UUID.randomUUID() + "@example.com", "member");
        TestResponse tooMany = put(platform, "/api/v1/planning/capacities/" + mine, key, "{\"weekly_hours\": 169}");
        assertEquals(422, tooMany.status(), tooMany.body());
        assertEquals("/weekly_hours", tooMany.json().path("errors").get(0).path("pointer").asText());
        assertEquals(422, put(platform, "/api/v1/planning/capacities/" + mine, key, "{}").status());
        assertEquals(403, put(platform, "/api/v1/planning/capacities/" + mine, platform.key(ws, "planning.read"),
                "{\"weekly_hours\": 20}").status());
    }

    private static TestResponse put(TestPlatform platform, String path, String key, String json) {
        return platform.send("PUT", path, key, json, java.util.Map.of());
    }

    private static JsonNode read(TestPlatform platform, String key, String query) {
        TestResponse response = platform.get(CAPACITY + query, key);
        assertEquals(200, response.status(), response.body());
        return response.data();
    }
}
