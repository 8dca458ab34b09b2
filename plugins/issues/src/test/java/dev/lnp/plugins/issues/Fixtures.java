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

    UUID cycle(UUID project) {
        return created(platform.post("/api/v1/projects/" + project + "/cycles", key,
                "{\"name\": \"Sprint\", \"start_date\": \"2025-01-01\", \"end_date\": \"2025-01-14\"}"));
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
