package dev.lnp.testkit;

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
 * ({@code org.keycloak:keycloak-quarkus-dist}, a test dependency of the module whose tests use it, so the local
 * repository caches it; that module's build names the zip in the system property {@code lnp.keycloak.zip}),
 * unpacked once under {@code target/}, started in development mode on free ports with the test realms imported.
 * It takes 12 to 30 seconds to start on two idle cores and several minutes when other builds share them, so a test
 * class starts one and shares it, and the start may take up to {@link #START_TIMEOUT}.
 *
 * <p>The realms (resources beside this class, {@code keycloak/}): {@value #REALM} with the client
 * {@value #CLIENT_ID} (secret {@value #CLIENT_SECRET}), the group {@code lnp-admins} and the people ada (in that
 * group), bob at {@code acme.example}, eve at {@code elsewhere.example} and una, whose address is not verified (each
 * one's password is their name and {@code -password}); and {@value #LEAN_REALM}, whose client of the same name and
 * secret gets the e-mail address and the groups only from the userinfo endpoint, never in the ID token, with the
 * person carol at {@code acme.example} in {@code lnp-admins}. Both accept any redirect URI on {@code localhost}.
 */
public final class Keycloak implements AutoCloseable {

    /** The realm whose ID tokens carry the e-mail address and the groups. */
    public static final String REALM = "lnp";
    /** The realm whose ID tokens carry neither: its client reads them from the userinfo endpoint. */
    public static final String LEAN_REALM = "lnp-lean";
    public static final String CLIENT_ID = "lnp-console";
    public static final String CLIENT_SECRET = "lnp-console-test-secret";
    private static final List<String> REALM_FILES = List.of("keycloak/lnp-realm.json", "keycloak/lnp-lean-realm.json");

    private static final Duration START_TIMEOUT = Duration.ofMinutes(10);

    private final Process process;
    private final int port;
    private final Path log;

    private Keycloak(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /**
     * Starts Keycloak with the test realms and waits until it serves them, or skips the calling test (outside CI)
     * when the build did not resolve the distribution.
     */
    public static Keycloak start() throws IOException, InterruptedException {
        Keycloak keycloak = launch();
        keycloak.awaitRealms();
        return keycloak;
    }

    /**
     * Starts Keycloak with the test realms without waiting for it: its port, and so its issuers, are known at once,
     * for a test that starts something slow of its own meanwhile; {@link #awaitRealms()} before the first sign-in.
     */
    public static Keycloak launch() throws IOException {
        String zip = System.getProperty("lnp.keycloak.zip", "");
        boolean present = !zip.isBlank() && !zip.startsWith("${") && Files.isRegularFile(Path.of(zip));
        if (!present && "true".equals(System.getenv("CI"))) {
            throw new IllegalStateException("lnp.keycloak.zip names no Keycloak distribution (" + zip + "): the build "
                    + "resolves org.keycloak:keycloak-quarkus-dist as a test dependency of the module whose tests "
                    + "start Keycloak");
        }
        Assumptions.assumeTrue(present, "SKIPPED: the Keycloak sign-in tests need the Keycloak distribution zip "
                + "(org.keycloak:keycloak-quarkus-dist, resolved by Maven into lnp.keycloak.zip); run them with Maven");
        Path home = unpacked(Path.of(zip));
        // A fresh development database each time: the realms are imported as the files say.
        deleteTree(home.resolve("data"));
        Path imports = Files.createDirectories(home.resolve("data/import"));
        for (String file : REALM_FILES) {
            try (InputStream realm = Keycloak.class.getResourceAsStream(file)) {
                if (realm == null) {
                    throw new IllegalStateException("no resource " + file + " beside " + Keycloak.class.getName());
                }
                Files.copy(realm, imports.resolve(Path.of(file).getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
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
        return new Keycloak(builder.start(), port, log);
    }

    /** Waits until both realms are served; stops Keycloak and throws, with its log, when they are not in time. */
    public void awaitRealms() throws IOException, InterruptedException {
        awaitRealm(REALM);
        awaitRealm(LEAN_REALM);
    }

    /** The issuer of {@code realm}, as the platform is configured with it. */
    public String issuer(String realm) {
        return "http://127.0.0.1:" + port + "/realms/" + realm;
    }

    public int port() {
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
