package dev.lnp.plugins.issues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.plugins.projects.api.ProjectDirectory;
import dev.lnp.testkit.ScratchDirs;
import dev.lnp.testkit.TestPlatform;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Both built jars in a plugins folder, loaded by PF4J as a deployment would: the issues plugin reaches
 * ProjectDirectory through the plugin dependency declared in its plugin.properties, not the class path.
 */
class IssuesPluginJarIT {

    private static Path pluginsDir;
    private static Path issuesJar;

    @BeforeAll
    static void dropTheJarsIntoAPluginsFolder() throws IOException, URISyntaxException {
        issuesJar = Path.of(System.getProperty("lnp.plugin.jar"));
        Path projectsJar = Path.of(ProjectDirectory.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(Files.isRegularFile(issuesJar), "built plugin jar " + issuesJar);
        assertTrue(Files.isRegularFile(projectsJar), "projects plugin jar " + projectsJar);
        pluginsDir = ScratchDirs.create("lnp-plugins");
        Files.copy(issuesJar, pluginsDir.resolve(issuesJar.getFileName()));
        Files.copy(projectsJar, pluginsDir.resolve(projectsJar.getFileName()));
    }

    @Test
    void issuesUseProjectsThroughThePluginDependency() {
        try (TestPlatform platform = TestPlatform.start("issuesjar", List.of(), pluginsDir, Map.of())) {
            var registry = platform.platform().registry();
            assertTrue(registry.contributionsOf("projects").isPresent());
            assertTrue(registry.contributionsOf("issues").isPresent());
            UUID ws = platform.createWorkspace("jar");
            String key = platform.fullAccessKey(ws);
            var project = platform.post("/api/v1/projects", key, "{\"name\": \"loaded by pf4j\"}");
            assertEquals(201, project.status(), project.body());
            String projectId = project.data().path("id").asText();
            var task = platform.post("/api/v1/issues", key,
                    "{\"kind\": \"task\", \"title\": \"t\", \"project_id\": \"" + projectId + "\"}");
            assertEquals(201, task.status(), task.body());
            var unknownProject = platform.post("/api/v1/issues", key,
                    "{\"kind\": \"task\", \"title\": \"t\", \"project_id\": \"" + UUID.randomUUID() + "\"}");
            assertEquals(422, unknownProject.status(), unknownProject.body());
            assertEquals(1, platform.get("/api/v1/projects/" + projectId + "/issues", key).data().size());

            var entry = registry.routes().stream().filter(r -> r.pluginId().equals("issues")).findFirst().orElseThrow();
            assertNotSame(IssuesPlugin.class.getClassLoader(), entry.spec().handler().getClass().getClassLoader(),
                    "the handler comes from the plugin jar, not the test class path");
        }
    }

    @Test
    void issuesWithoutProjectsRefuseToStart() throws IOException {
        Path alone = ScratchDirs.create("lnp-plugins-alone");
        Files.copy(issuesJar, alone.resolve(issuesJar.getFileName()));
        var failure = assertThrows(RuntimeException.class,
                () -> TestPlatform.start("issuesalone", List.of(), alone, Map.of()).close());
        StringBuilder messages = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append(" / ");
        }
        assertTrue(messages.toString().contains("projects"), messages.toString());
    }
}
