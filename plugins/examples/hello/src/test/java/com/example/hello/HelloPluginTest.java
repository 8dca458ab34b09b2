package com.example.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@PlatformTest(plugins = "hello")
class HelloPluginTest {

    @Test
    void greetsWithAKeyThatHasTheScope(TestPlatform platform) {
        UUID ws = platform.createWorkspace("hello");
        var response = platform.get("/api/v1/hello", platform.key(ws, "hello.read"));
        assertEquals(200, response.status(), response.body());
        assertEquals(ws.toString(), response.data().path("workspace_id").asText());
        assertEquals("v1", response.header("X-API-Version").orElseThrow());
    }

    @Test
    void storesAndListsGreetingsPerWorkspace(TestPlatform platform) {
        UUID ws = platform.createWorkspace("a");
        UUID other = platform.createWorkspace("b");
        String key = platform.key(ws, "hello.read", "hello.write");
        var created = platform.post("/api/v1/hello/greetings", key, "{\"name\":\"Ada\"}");
        assertEquals(201, created.status(), created.body());
        assertEquals("Hello, Ada!", created.data().path("message").asText());

        var mine = platform.get("/api/v1/hello/greetings", key);
        assertEquals(1, mine.json().path("pagination").path("total").asInt(), mine.body());
        var theirs = platform.get("/api/v1/hello/greetings", platform.key(other, "hello.read"));
        assertEquals(0, theirs.json().path("pagination").path("total").asInt(), theirs.body());
    }

    @Test
    void refusesAKeyWithoutTheScope(TestPlatform platform) {
        UUID ws = platform.createWorkspace("c");
        var response = platform.post("/api/v1/hello/greetings", platform.key(ws, "hello.read"), "{\"name\":\"Ada\"}");
        assertEquals(403, response.status(), response.body());
        assertTrue(response.header("Content-Type").orElseThrow().startsWith("application/problem+json"));
    }

    @Test
    void rejectsAnUnknownField(TestPlatform platform) {
        UUID ws = platform.createWorkspace("d");
        var response = platform.post("/api/v1/hello/greetings", platform.key(ws, "hello.write"),
                "{\"name\":\"Ada\",\"age\":3}");
        assertEquals(422, response.status(), response.body());
        assertEquals("/age", response.json().path("errors").get(0).path("pointer").asText());
    }
}
