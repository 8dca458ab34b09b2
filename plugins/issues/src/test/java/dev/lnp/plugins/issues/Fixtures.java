package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.UUID;

/** A workspace with a key for everything these tests touch, and helpers that create through the API. */
record Fixtures(TestPlatform platform, UUID ws, String key) {

    /** A member of the workspace, to assign work to. */
    UUID user() {
        return platform.workspaces().addUser(ws, "member-" + UUID.randomUUID() + "@example.com", "member");
    }

    static Fixtures workspace(TestPlatform platform, String name) {
        UUID ws = platform.createWorkspace(name);
        return new Fixtures(platform, ws, platform.key(ws, "issues.read", "issues.write", "projects.read",
                "projects.write", "planning.read", "planning.write"));
    }

    UUID project(String name) {
        return created(platform.post("/api/v1/projects", key, "{\"name\": \"" + name + "\"}"));
    }

    /** Cycles of one project may not overlap: each one made here gets a fortnight of its own. */
    private static final java.util.concurrent.atomic.AtomicInteger FORTNIGHTS = new java.util.concurrent.atomic.AtomicInteger();

    UUID cycle(UUID project) {
        java.time.LocalDate start = java.time.LocalDate.of(2025, 1, 1).plusWeeks(2L * FORTNIGHTS.getAndIncrement());
        return created(platform.post("/api/v1/projects/" + project + "/cycles", key,
                "{\"name\": \"Sprint\", \"start_date\": \"" + start + "\", \"end_date\": \"" + start.plusDays(13)
                        + "\"}"));
    }

    UUID task(String title) {
        return issue("{\"kind\": \"task\", \"title\": \"" + title + "\"}");
    }

    UUID ticket(String title) {
        return issue("{\"kind\": \"ticket\", \"title\": \"" + title + "\"}");
    }

    UUID issue(String json) {
        return created(platform.post("/api/v1/issues", key, json));
    }

    UUID label(String name) {
        return created(platform.post("/api/v1/issues/labels", key, "{\"name\": \"" + name + "\", \"color\": \"#AA0011\"}"));
    }

    JsonNode get(UUID issue) {
        TestResponse response = platform.get("/api/v1/issues/" + issue, key);
        assertEquals(200, response.status(), response.body());
        return response.data();
    }

    private static UUID created(TestResponse response) {
        assertEquals(201, response.status(), response.body());
        return UUID.fromString(response.data().path("id").asText());
    }

    /** The first error's pointer of a 400 or 422; fails on any other answer (a 500 has no errors to point at). */
    static String pointer(TestResponse response) {
        org.junit.jupiter.api.Assertions.assertTrue(response.status() == 400 || response.status() == 422,
                response.status() + " " + response.body());
        return response.json().path("errors").get(0).path("pointer").asText();
    }
}
