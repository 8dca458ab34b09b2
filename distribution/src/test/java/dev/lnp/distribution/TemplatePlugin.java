package dev.lnp.distribution;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The distribution's own test plugin, made as a third party makes one: {@code ./mvnw install} of the platform's
 * public artifacts into a private local repository, {@code plugins/template/create-plugin} for a new project
 * outside the reactor, and {@code mvnw verify} of that project (its own testkit tests included) against the
 * installed artifacts only. Built once per test JVM.
 */
final class TemplatePlugin {

    static final String ID = "memo";
    private static final Duration INSTALL = Duration.ofMinutes(10);
    private static final Duration BUILD = Duration.ofMinutes(10);

    private static Path jar;
    /** The generated project and the builds' logs; deleted when the test JVM ends (the jar is used until then). */
    private static Path scratch;

    private TemplatePlugin() {
    }

    static synchronized Path jar() throws Exception {
        if (jar == null) {
            jar = build();
        }
        return jar;
    }

    private static Path build() throws Exception {
        scratch = Files.createTempDirectory("lnp-third-party-");
        Path created = scratch;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                deleteTree(created);
            } catch (IOException e) {
                System.err.println("could not delete " + created + ": " + e);
            }
        }, "third-party-scratch"));
        Path root = Path.of(System.getProperty("lnp.project.root", "..")).toAbsolutePath().normalize();
        Path repo = Path.of(System.getProperty("lnp.it.repo", "target/it-m2")).toAbsolutePath();
        String tail = System.getProperty("lnp.it.repo.tail", Path.of(System.getProperty("user.home"), ".m2",
                "repository").toString());
        // Only what this build installs may satisfy the plugin's platform dependencies: no earlier install.
        deleteTree(repo.resolve("dev/lnp"));
        List<String> repoFlags = List.of("-Dmaven.repo.local=" + repo, "-Dmaven.repo.local.tail=" + tail);
        Path mvnw = root.resolve("mvnw");

        List<String> install = new ArrayList<>(List.of(mvnw.toString(), "-B", "-q", "install", "-DskipTests",
                "-pl", "modules/platform-testkit,plugins/parent", "-am"));
        install.addAll(repoFlags);
        run(install, root, INSTALL, "install of the platform's artifacts");

        Path project = scratch.resolve(ID + "-plugin");
        run(List.of(root.resolve("plugins/template/create-plugin").toString(), project.toString(), ID,
                "org.acme." + ID), root, Duration.ofSeconds(30), "create-plugin");

        List<String> verify = new ArrayList<>(List.of(mvnw.toString(), "-B", "-q", "verify"));
        verify.addAll(repoFlags);
        run(verify, project, BUILD, "build of the plugin project");
        try (Stream<Path> jars = Files.list(project.resolve("target"))) {
            Path built = jars.filter(p -> p.getFileName().toString().matches(ID + "-plugin-.*\\.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("no plugin jar in " + project.resolve("target")));
            assertTrue(Files.size(built) > 0, built.toString());
            return built;
        }
    }

    private static void run(List<String> command, Path dir, Duration timeout, String what) throws Exception {
        Path log = Files.createTempFile(scratch, "build-", ".log");
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // The nested build finds its own JDK (mvnw); the outer build's Maven settings must not leak into it.
        pb.environment().remove("MAVEN_OPTS");
        pb.environment().remove("MAVEN_ARGS");
        Process p = pb.start();
        if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            fail(what + " did not finish within " + timeout + ":\n" + tail(log));
        }
        if (p.exitValue() != 0) {
            fail(what + " failed (" + command + "):\n" + tail(log));
        }
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
