package dev.lnp.testkit.console;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Keycloak for the sign-in tests: the server distribution from Maven Central
 * ({@code org.keycloak:keycloak-quarkus-dist}, a test dependency of this module, so the local repository caches it;
 * the build names the zip in {@code lnp.keycloak.zip}), unpacked once under {@code target/}, started in development
 * mode on free ports with a realm imported from {@code src/test/resources/keycloak}. It takes 12 to 30 seconds to
 * start on two cores, so a test class starts one and shares it.
 */
final class Keycloak implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    private final Process process;
    private final int port;
    private final Path log;

    private Keycloak(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /**
     * Starts Keycloak with the realm file {@code realmResource}, or skips the calling test (outside CI) when the build
     * did not resolve the distribution.
     */
    static Keycloak start(String realmResource) throws IOException, InterruptedException {
        String zip = System.getProperty("lnp.keycloak.zip", "");
        boolean present = !zip.isBlank() && !zip.startsWith("${") && Files.isRegularFile(Path.of(zip));
        if (!present && "true".equals(System.getenv("CI"))) {
            throw new IllegalStateException("lnp.keycloak.zip names no Keycloak distribution (" + zip + "): the build "
                    + "resolves org.keycloak:keycloak-quarkus-dist as a test dependency of platform-core-tests");
        }
        Assumptions.assumeTrue(present, "SKIPPED: the Keycloak sign-in tests need the Keycloak distribution zip "
                + "(org.keycloak:keycloak-quarkus-dist, resolved by Maven into lnp.keycloak.zip); run them with Maven");
        Path home = unpacked(Path.of(zip));
        // A fresh development database each time: the realm is imported as the file says.
        deleteTree(home.resolve("data"));
        Path imports = Files.createDirectories(home.resolve("data/import"));
        try (InputStream realm = Keycloak.class.getResourceAsStream(realmResource)) {
            if (realm == null) {
                throw new IllegalStateException("no test resource " + realmResource);
            }
            Files.copy(realm, imports.resolve("realm.json"), StandardCopyOption.REPLACE_EXISTING);
        }
        int port = freePort();
        Path log = home.resolveSibling("keycloak-" + port + ".log");
        var builder = new ProcessBuilder("/bin/sh", home.resolve("bin/kc.sh").toString(), "start-dev",
                "--http-port=" + port, "--http-management-port=" + freePort(), "--import-realm",
                "--http-host=127.0.0.1", "--cache=local")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        // The JDK running the tests (Keycloak 26 runs on 17 or newer); its own defaults otherwise.
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("JAVA_OPTS_KC_HEAP", "-Xms64m -Xmx512m");
        var keycloak = new Keycloak(builder.start(), port, log);
        keycloak.awaitRealm("lnp");
        return keycloak;
    }

    /** The issuer of {@code realm}, as the platform is configured with it. */
    String issuer(String realm) {
        return "http://127.0.0.1:" + port + "/realms/" + realm;
    }

    int port() {
        return port;
    }

    private void awaitRealm(String realm) throws IOException, InterruptedException {
        var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        var request = HttpRequest.newBuilder(URI.create(issuer(realm) + "/.well-known/openid-configuration"))
                .timeout(Duration.ofSeconds(5)).build();
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Keycloak stopped while starting; its log:\n" + tail());
            }
            try {
                if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        close();
        throw new IllegalStateException("Keycloak did not serve realm " + realm + " within " + START_TIMEOUT
                + "; its log:\n" + tail());
    }

    private String tail() throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    /** Unpacks the distribution next to the test classes once; a later run finds it there. */
    private static Path unpacked(Path zip) throws IOException {
        Path target = Path.of("target", "keycloak").toAbsolutePath();
        Path done = target.resolve(zip.getFileName() + ".unpacked");
        if (!Files.exists(done)) {
            deleteTree(target);
            Files.createDirectories(target);
            try (var in = new ZipInputStream(Files.newInputStream(zip))) {
                for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                    Path to = target.resolve(entry.getName()).normalize();
                    if (!to.startsWith(target)) {
                        throw new IOException("zip entry outside the target: " + entry.getName());
                    }
                    if (entry.isDirectory()) {
                        Files.createDirectories(to);
                    } else {
                        Files.createDirectories(to.getParent());
                        Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            Files.writeString(done, zip.toString());
        }
        try (Stream<Path> children = Files.list(target)) {
            return children.filter(p -> Files.isRegularFile(p.resolve("bin/kc.sh"))).findFirst()
                    .orElseThrow(() -> new IOException("no bin/kc.sh in " + zip));
        }
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Stops Keycloak (the shell script runs the JVM as its child) and waits for it. */
    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
