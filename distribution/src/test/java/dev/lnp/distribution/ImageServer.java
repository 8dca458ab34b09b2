package dev.lnp.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One {@code bin/platform serve} process of a {@link ReleaseImage}, on free loopback ports, with its log. */
record ImageServer(ReleaseImage image, Process process, int port, int managementPort, Path log, HttpClient http) {

    private static final Duration STOP = Duration.ofSeconds(30);

    static ImageServer start(ReleaseImage image, String name, int port, Map<String, String> extraEnv)
            throws IOException {
        int managementPort = freePort();
        Path log = image.work.resolve("serve-" + name + ".log");
        ProcessBuilder pb = new ProcessBuilder(image.launcher.toString(), "serve")
                .directory(image.callerDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        var env = pb.environment();
        image.isolate(env); // nothing from the build's environment, no database URL, no JDK
        env.put("LNP_HTTP_PORT", String.valueOf(port));
        env.put("LNP_MANAGEMENT_PORT", String.valueOf(managementPort));
        env.put("LNP_HTTP_HOST", "127.0.0.1");
        env.put("LNP_DATA_DIR", image.dataDir.toString());
        env.put("LNP_JAVA_OPTS", "-Xmx256m");
        env.putAll(extraEnv);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        return new ImageServer(image, pb.start(), port, managementPort, log, http);
    }

    String base() {
        return "http://127.0.0.1:" + port;
    }

    void awaitReady(Duration timeout) throws Exception {
        long started = System.nanoTime();
        long deadline = started + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                fail("bin/platform serve exited with " + process.exitValue() + " before ready:\n" + tail());
            }
            try {
                if (get("/observe/health/ready").statusCode() == 200) {
                    System.out.printf("ready after %d ms%n", (System.nanoTime() - started) / 1_000_000);
                    return;
                }
            } catch (IOException notYetListening) {
                // keep polling
            }
            Thread.sleep(250);
        }
        fail("not ready within " + timeout + ":\n" + tail());
    }

    HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base() + path))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> management(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A JSON request with a bearer key ({@code json} null: no body). */
    HttpResponse<String> send(String method, String path, String key, String json)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base() + path))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + key)
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base() + path))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** SIGTERM (bin/platform execs the JVM, so it gets the signal): exit 0, embedded database stopped. */
    Duration stopAndAssertClean() throws Exception {
        long signalled = System.nanoTime();
        process.destroy();
        long deadline = System.nanoTime() + STOP.toNanos();
        while (!Files.readString(log).contains("Platform stopped") && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertTrue(Files.readString(log).contains("Platform stopped"),
                "the platform did not stop within " + STOP + " of SIGTERM:\n" + tail());
        if (!process.waitFor(STOP.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            fail("bin/platform serve did not end within " + STOP + " of SIGTERM:\n" + tail());
        }
        Duration stopped = Duration.ofNanos(System.nanoTime() - signalled);
        assertEquals(0, process.exitValue(), "a requested stop exits 0:\n" + tail());
        assertFalse(Files.exists(image.dataDir.resolve("pgsql/data/postmaster.pid")),
                "the embedded PostgreSQL is stopped with the platform:\n" + tail());
        return stopped;
    }

    /** The last 40 lines of the log, for failure messages. */
    String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
