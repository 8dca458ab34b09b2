package com.example.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.ScratchDirs;
import dev.lnp.testkit.TestPlatform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The built plugin artifact, dropped into a plugins folder and loaded by PF4J, as a deployment would.
 * Runs after {@code package}, so the jar exists.
 */
class HelloPluginJarIT {

    private static Path pluginsDir;

    @BeforeAll
    static void dropTheJarIntoAPluginsFolder() throws IOException {
        Path jar = Path.of(System.getProperty("lnp.plugin.jar"));
        assertTrue(Files.isRegularFile(jar), "built plugin jar " + jar);
        pluginsDir = ScratchDirs.create("lnp-plugins");
        Files.copy(jar, pluginsDir.resolve(jar.getFileName()));
    }

    @Test
    void loadsThePluginJarAndServesItsRoute() {
        try (TestPlatform platform = TestPlatform.start("hellojar", List.of(), pluginsDir, Map.of())) {
            var hello = platform.platform().registry().contributionsOf("hello").orElseThrow();
            assertEquals(3, hello.routes().size());
            assertEquals(Optional.of("hello"), hello.schema());
            UUID ws = platform.createWorkspace("jar");
            var response = platform.get("/api/v1/hello", platform.key(ws, "hello.read"));
            assertEquals(200, response.status(), response.body());
            // Loaded through PF4J's own class loader, not the test's class path.
            assertTrue(platform.platform().registry().routes().stream().anyMatch(r -> r.pluginId().equals("hello")));
        }
    }

    @Test
    void aDisabledPluginIsNotLoadedAndItsRouteIs404() {
        try (TestPlatform platform = TestPlatform.start("hellooff", List.of(), pluginsDir,
                Map.of("lnp.plugins.disabled", "hello"))) {
            assertTrue(platform.platform().registry().contributionsOf("hello").isEmpty());
            UUID ws = platform.createWorkspace("off");
            var response = platform.get("/api/v1/hello", platform.fullAccessKey(ws));
            assertEquals(404, response.status(), response.body());
            assertEquals("route_not_found", response.json().path("code").asText());
        }
    }

}
