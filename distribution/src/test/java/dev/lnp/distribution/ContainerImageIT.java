package dev.lnp.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OCI image tarball of the {@code container} profile (docs/operations.md, "Container image"), read as a
 * container runtime reads it: the OCI layout's index, the manifest it names, the configuration (user, entrypoint,
 * ports, volume) and the layers' files. Runs only in that profile, which sets {@code lnp.container.tar}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@EnabledIfSystemProperty(named = "lnp.container.tar", matches = ".+")
class ContainerImageIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private Path archive;
    private Path layout;
    private JsonNode manifest;
    private JsonNode config;

    @BeforeAll
    void unpack(@TempDir Path temp) throws Exception {
        archive = Path.of(System.getProperty("lnp.container.tar"));
        assertTrue(Files.isRegularFile(archive), "no image tarball at " + archive);
        layout = temp;
        run(List.of("tar", "-xf", archive.toString(), "-C", layout.toString()));
        JsonNode index = JSON.readTree(layout.resolve("index.json").toFile());
        assertEquals(2, index.path("schemaVersion").asInt());
        assertEquals(1, index.path("manifests").size(), "one image in the tarball");
        manifest = blob(index.path("manifests").get(0).path("digest").asText());
        config = blob(manifest.path("config").path("digest").asText());
    }

    @Test
    void isAnOciLayoutWithAnOciManifest() throws IOException {
        assertTrue(Files.readString(layout.resolve("oci-layout")).contains("\"imageLayoutVersion\""));
        assertEquals("application/vnd.oci.image.manifest.v1+json", manifest.path("mediaType").asText());
        assertEquals("application/vnd.oci.image.config.v1+json", manifest.path("config").path("mediaType").asText());
        assertEquals("linux", config.path("os").asText());
        assertEquals("amd64", config.path("architecture").asText());
        // The Debian base, then runtime, lib (with the bundled plugins), plugins (empty), and the launcher and configuration.
        assertEquals(5, manifest.path("layers").size(), manifest.toString());
        assertEquals(5, config.path("rootfs").path("diff_ids").size());
    }

    @Test
    void runsTheLauncherAsTheUnprivilegedUserWithDataInAVolume() {
        JsonNode run = config.path("config");
        assertEquals("10001:10001", run.path("User").asText());
        assertEquals(List.of("/opt/lnp/bin/platform", "serve"), texts(run.path("Entrypoint")));
        assertEquals("/opt/lnp", run.path("WorkingDir").asText());
        assertTrue(run.path("ExposedPorts").has("8080/tcp"), run.toString());
        assertTrue(run.path("ExposedPorts").has("9464/tcp"), run.toString());
        assertTrue(run.path("Volumes").has("/opt/lnp/data"), run.toString());
        assertTrue(texts(run.path("Env")).contains("LNP_HTTP_HOST=0.0.0.0"), run.toString());
    }

    @Test
    void theBaseHasTheUserAndItsWritableFoldersAndTheShell() throws Exception {
        String base = listLayer(0);
        assertTrue(base.lines().anyMatch(l -> l.startsWith("drwx") && l.contains(" 10001/10001 ")
                && l.endsWith("./opt/lnp/data/")), "data/ owned by uid 10001");
        assertTrue(base.lines().anyMatch(l -> l.contains(" 10001/10001 ") && l.endsWith("./opt/lnp/cache/")),
                "cache/ owned by uid 10001");
        assertTrue(base.lines().anyMatch(l -> l.endsWith("./usr/bin/dash")), "the launcher's /bin/sh");
        assertTrue(base.contains("libc.so.6"), "glibc for the runtime");
        Path passwd = layout.resolve("passwd");
        String layer = layout.resolve("blobs/sha256").resolve(hex(manifest.path("layers").get(0))).toString();
        run(List.of("sh", "-c", "tar -xzOf '" + layer + "' ./etc/passwd > '" + passwd + "'"));
        assertTrue(Files.readString(passwd).contains("lnp:x:10001:10001:"), "initdb looks the user up");
    }

    @Test
    void theLayersHoldTheReleaseFolderWithItsModesAndNoState() throws Exception {
        StringBuilder ours = new StringBuilder();
        for (int i = 1; i < manifest.path("layers").size(); i++) {
            ours.append(listLayer(i));
        }
        String files = ours.toString(); // tar -tv lines: mode, owner, size, date, time, path (no leading /)
        assertTrue(files.lines().anyMatch(l -> l.startsWith("-rwxr-xr-x") && l.endsWith(" opt/lnp/bin/platform")),
                "the launcher is executable");
        assertTrue(files.lines().anyMatch(l -> l.startsWith("-rwxr-xr-x") && l.endsWith(" opt/lnp/runtime/bin/java")),
                "the runtime's java is executable");
        assertTrue(files.contains(" opt/lnp/conf/platform.yaml"));
        assertTrue(files.lines().anyMatch(l -> l.matches(".* opt/lnp/lib/platform-core-.*\\.jar")));
        assertTrue(files.lines().anyMatch(l -> l.matches(".* opt/lnp/lib/plugins/crm-plugin-.*\\.jar")));
        assertTrue(files.lines().noneMatch(l -> l.contains(" opt/lnp/data/") || l.contains(" opt/lnp/cache/")),
                "no state of an earlier run is shipped");
    }

    /**
     * Runs the image as a container runtime would, short of a runtime (none can be installed with its registry
     * here): every layer unpacked in order into one root, then its entrypoint started in a chroot as the image's
     * user with the image's environment, the embedded PostgreSQL in the volume's folder, until ready. The mounts
     * (/proc, /dev) live in a private mount namespace, gone when the process ends.
     */
    @Test
    void servesAsTheImageUserUntilReady(@TempDir Path root) throws Exception {
        assertEquals("0", run(List.of("id", "-u")).strip(), "the container profile runs as root (debootstrap, chroot)");
        for (int i = 0; i < manifest.path("layers").size(); i++) {
            run(List.of("tar", "--numeric-owner", "-xzpf",
                    layout.resolve("blobs/sha256").resolve(hex(manifest.path("layers").get(i))).toString(),
                    "-C", root.toString()));
        }
        JsonNode image = config.path("config");
        int port;
        try (var socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of("unshare", "--mount", "--fork", "sh", "-c",
                "r=$1 u=$2 && shift 2 && mount -t proc proc \"$r/proc\" && mount --bind /dev \"$r/dev\""
                        + " && exec chroot --userspec=\"$u\" \"$r\" env -i \"$@\"",
                "sh", root.toString(), image.path("User").asText()));
        command.addAll(texts(image.path("Env")));
        command.addAll(List.of("LNP_HTTP_PORT=" + port, "LNP_MANAGEMENT_PORT=-1", "LNP_AOT_CACHE=off",
                "sh", "-c", "cd \"$0\" && exec \"$@\"", image.path("WorkingDir").asText()));
        command.addAll(texts(image.path("Entrypoint")));
        Path log = root.resolve("serve.log");
        Process serve = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            var http = java.net.http.HttpClient.newHttpClient();
            var ready = java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + port + "/observe/health/ready")).build();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
            int status = 0;
            while (status != 200 && serve.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(1000);
                try {
                    status = http.send(ready, java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
                } catch (IOException notYet) {
                    status = 0;
                }
            }
            assertEquals(200, status, "not ready; its output:\n" + Files.readString(log));
            String owners = run(List.of("ps", "-o", "user=", "-u", "10001"));
            assertTrue(owners.lines().count() >= 2, "java and postgres run as uid 10001: " + owners);
            assertTrue(Files.isDirectory(root.resolve("opt/lnp/data/pgsql/data")), "the database is in the volume");
        } finally {
            serve.toHandle().descendants().filter(p -> p.info().command().orElse("").endsWith("/java"))
                    .forEach(ProcessHandle::destroy);
            if (!serve.waitFor(1, TimeUnit.MINUTES)) {
                serve.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
                serve.destroyForcibly();
            }
        }
    }

    /** Where skopeo is installed (.ci/run installs it), the image must also be readable by it. */
    @Test
    void skopeoReadsTheArchiveWhereInstalled() throws Exception {
        Path skopeo = Path.of("/usr/bin/skopeo");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(skopeo), "skopeo is not installed");
        JsonNode inspected = JSON.readTree(run(List.of(skopeo.toString(), "inspect", "--config",
                "oci-archive:" + archive)));
        assertEquals("10001:10001", inspected.path("config").path("User").asText());
    }

    private String listLayer(int index) throws Exception {
        JsonNode layer = manifest.path("layers").get(index);
        assertEquals("application/vnd.oci.image.layer.v1.tar+gzip", layer.path("mediaType").asText());
        return run(List.of("tar", "--numeric-owner", "-tvzf",
                layout.resolve("blobs/sha256").resolve(hex(layer)).toString()));
    }

    private JsonNode blob(String digest) throws IOException {
        assertTrue(digest.startsWith("sha256:"), digest);
        return JSON.readTree(layout.resolve("blobs/sha256").resolve(digest.substring(7)).toFile());
    }

    private static String hex(JsonNode descriptor) {
        return descriptor.path("digest").asText().substring("sha256:".length());
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(node -> texts.add(node.asText()));
        return texts;
    }

    private static String run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), "still running: " + command);
        assertEquals(0, process.exitValue(), command + ": " + output);
        return output;
    }
}
