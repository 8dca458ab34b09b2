import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The build's training run for the start-up (AOT) cache the distribution ships as {@code aot/platform.aot}: starts
 * the built distribution as an operator does ({@code bin/platform serve}, with {@code LNP_AOT_CACHE=record}) on a
 * fresh embedded database, sends it the requests a first visit makes (health, console sign-in page, API and MCP
 * calls without a key, the chat widget, metrics), and stops it with SIGTERM; the JVM then writes the cache.
 * Run by the distribution's {@code package} phase with the build's JDK:
 * {@code java AotTraining.java <distribution folder> <work folder>}.
 */
public final class AotTraining {

    private static final Pattern LISTENING = Pattern.compile("listening on http://localhost:(\\d+)");
    private static final Duration READY = Duration.ofMinutes(3);
    private static final Duration CACHE_WRITTEN = Duration.ofMinutes(5);

    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]).toAbsolutePath();
        Path work = Path.of(args[1]).toAbsolutePath();
        deleteTree(work);
        Files.createDirectories(work);
        Path log = work.resolve("training.log");
        int managementPort = freePort();

        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/platform").toString(), "serve")
                .redirectError(log.toFile());
        Map<String, String> env = builder.environment();
        // The cache must fit the shipped defaults: no option, setting or database of the building shell.
        env.keySet().removeIf(name -> name.startsWith("LNP_") || name.equals("JAVA_TOOL_OPTIONS")
                || name.equals("JDK_JAVA_OPTIONS") || name.equals("_JAVA_OPTIONS"));
        env.put("LNP_AOT_CACHE", "record");
        env.put("LNP_DATA_DIR", work.resolve("data").toString());
        env.put("LNP_HTTP_HOST", "127.0.0.1");
        env.put("LNP_HTTP_PORT", "0");
        env.put("LNP_MANAGEMENT_PORT", Integer.toString(managementPort));
        env.put("LNP_WEBHOOKS_DISPATCH", "false");
        long started = System.nanoTime();
        Process server = builder.start();
        try {
            int port = awaitListening(server, log);
            System.out.printf("AOT training: ready on port %d after %d ms%n", port,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            visit(port, managementPort);
        } catch (Exception e) {
            server.destroyForcibly().waitFor();
            throw new IllegalStateException("AOT training run failed: " + e.getMessage() + "\n" + tail(log), e);
        }
        long stopping = System.nanoTime();
        server.destroy(); // SIGTERM: bin/platform execs the JVM, which writes the cache as it exits
        if (!server.waitFor(CACHE_WRITTEN.toSeconds(), TimeUnit.SECONDS)) {
            server.destroyForcibly().waitFor();
            throw new IllegalStateException("the training run did not end within " + CACHE_WRITTEN + "\n" + tail(log));
        }
        Path cache = home.resolve("aot/platform.aot");
        if (server.exitValue() != 0 || !Files.isRegularFile(cache) || Files.size(cache) == 0) {
            throw new IllegalStateException("the training run exited " + server.exitValue() + " without writing "
                    + cache + "\n" + tail(log));
        }
        System.out.printf("AOT training: %s, %d MB, written in %d ms after the stop%n", home.relativize(cache),
                Files.size(cache) >> 20, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping));
        deleteTree(work.resolve("data"));
    }

    private static int awaitListening(Process server, Path log) throws Exception {
        var lines = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        var port = new java.util.concurrent.CompletableFuture<Integer>();
        Thread.ofPlatform().daemon().start(() -> {
            try {
                for (String line; (line = lines.readLine()) != null; ) {
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        port.complete(Integer.parseInt(m.group(1)));
                    }
                }
                port.completeExceptionally(new IOException("the server ended before it was listening"));
            } catch (IOException e) {
                port.completeExceptionally(e);
            }
        });
        // The reader goes on draining standard output until the server ends.
        try {
            return port.get(READY.toSeconds(), TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw (Exception) e.getCause();
        }
    }

    /** What a first visit asks; the answers do not matter (most are 401 without a key), the code they run does. */
    private static void visit(int port, int managementPort) throws Exception {
        String base = "http://127.0.0.1:" + port;
        List<HttpRequest> requests = List.of(
                get(base + "/observe/health"),
                get(base + "/console/sign-in"),
                get(base + "/console/assets/console.css"),
                get(base + "/openapi/v1.json"),
                get(base + "/api/v1/projects"),
                get(base + "/api/v1/crm/contacts?limit=10"),
                get(base + "/api/v1/nothing-here"),
                HttpRequest.newBuilder(URI.create(base + "/api/v1/projects")).timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Bearer lnp_training_not_a_key")
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"training\"}")).build(),
                HttpRequest.newBuilder(URI.create(base + "/api/mcp")).timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}")).build(),
                get(base + "/api/cxo/widget.js"),
                get("http://127.0.0.1:" + managementPort + "/metrics"));
        try (HttpClient client = HttpClient.newHttpClient()) {
            for (int round = 0; round < 3; round++) {
                for (HttpRequest request : requests) {
                    client.send(request, HttpResponse.BodyHandlers.discarding());
                }
            }
        }
    }

    private static HttpRequest get(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String tail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "";
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
