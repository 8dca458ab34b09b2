package dev.lnp.testkit;

import dev.lnp.core.Platform;
import dev.lnp.core.auth.Connections;
import dev.lnp.core.auth.ScopeCatalog;
import dev.lnp.core.plugins.LoadedPlugin;
import dev.lnp.core.plugins.PluginLoader;
import dev.lnp.core.tenancy.Workspaces;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * A booted platform on a free loopback port and a database of its own, with helpers to create workspaces
 * and keys and to call the API over real HTTP.
 */
public final class TestPlatform implements AutoCloseable {

    private final String databaseUrl;
    private final boolean ownsDatabase;
    private final Platform platform;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private TestPlatform(String databaseUrl, boolean ownsDatabase, Platform platform) {
        this.databaseUrl = databaseUrl;
        this.ownsDatabase = ownsDatabase;
        this.platform = platform;
    }

    /**
     * @param plugins ids of class-path plugins to enable (empty: all)
     * @param pluginsDir load plugins from this folder with PF4J instead, when not null
     */
    public static TestPlatform start(String name, List<String> plugins, Path pluginsDir, Map<String, String> config) {
        String url = TestDatabases.createDatabase(name);
        try {
            return boot(url, true, plugins, pluginsDir, config);
        } catch (RuntimeException e) {
            TestDatabases.dropDatabase(url);
            throw e;
        }
    }

    /** A second node on the database of {@code first}, as in a deployment of several platform processes. */
    public static TestPlatform startOn(TestPlatform first, List<String> plugins, Map<String, String> config) {
        return boot(first.databaseUrl, false, plugins, null, config);
    }

    private static TestPlatform boot(String url, boolean ownsDatabase, List<String> plugins, Path pluginsDir,
            Map<String, String> config) {
        TestDatabases.Server server = TestDatabases.server();
        Map<String, String> overrides = new HashMap<>();
        overrides.put("lnp.database.url", url);
        overrides.put("lnp.database.user", server.user());
        overrides.put("lnp.database.password", server.password());
        overrides.put("lnp.database.pool.size", "8");
        overrides.put("lnp.http.host", "127.0.0.1");
        overrides.put("lnp.http.port", "0");
        overrides.put("lnp.management.port", "0");
        overrides.put("lnp.http.shutdown_grace_seconds", "5");
        overrides.putAll(config);
        PluginLoader[] loader = new PluginLoader[1];
        var platformConfig = PlatformExtension.config(overrides);
        List<LoadedPlugin> loaded = PlatformExtension.plugins(plugins, pluginsDir, platformConfig, loader);
        Platform platform = PlatformExtension.boot(platformConfig, loaded, loader[0]);
        return new TestPlatform(url, ownsDatabase, platform);
    }

    public Platform platform() {
        return platform;
    }

    public int port() {
        return platform.port();
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port() + path);
    }

    /** Direct database access as the pool's user (no row-level security), for setting up and checking state. */
    public Jdbi jdbi() {
        return platform.database().jdbi();
    }

    public String databaseUrl() {
        return databaseUrl;
    }

    public Workspaces workspaces() {
        return new Workspaces(jdbi());
    }

    public Connections connections() {
        return new Connections(jdbi(), new ScopeCatalog(platform.registry()).all());
    }

    public UUID createWorkspace(String name) {
        return workspaces().create(name, "owner-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com").id();
    }

    /** Gives a workspace its own monthly limit for a quota a plugin declared (as an operator would). */
    /**
     * A person with {@code role} ({@code owner}: the workspace's owner; {@code admin}, {@code member}: a new user)
     * signed in to the workspace, to test pages (the page API) as they are used.
     */
    public TestPerson person(UUID workspaceId, String role) {
        return new TestPerson(this, workspaceId, role);
    }

    public void setQuota(UUID workspaceId, String quota, long monthly) {
        workspaces().setQuota(workspaceId, quota, monthly);
    }

    /** A key of a new connection with exactly these scopes. */
    public String key(UUID workspaceId, String... scopes) {
        return connections().create(new Connections.NewConnection(workspaceId, "test", List.of(scopes), null, null,
                null)).key();
    }

    public String fullAccessKey(UUID workspaceId) {
        return connections().create(new Connections.NewConnection(workspaceId, "test", List.of(),
                ScopeCatalog.FULL_ACCESS, null, null)).key();
    }

    public TestResponse get(String path, String key) {
        return send("GET", path, key, null, Map.of());
    }

    public TestResponse post(String path, String key, String json) {
        return send("POST", path, key, json, Map.of());
    }

    public TestResponse patch(String path, String key, String json) {
        return send("PATCH", path, key, json, Map.of());
    }

    public TestResponse delete(String path, String key) {
        return send("DELETE", path, key, null, Map.of());
    }

    /** Any request; a null key sends no Authorization header, a JSON body is sent as application/json. */
    public TestResponse send(String method, String path, String key, String json, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30));
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        if (json != null && !headers.containsKey("Content-Type")) {
            request.header("Content-Type", "application/json");
        }
        headers.forEach(request::header);
        request.method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json));
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new TestResponse(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Who a key is, as the pipeline sees it. */
    public dev.lnp.api.workspace.Principal principal(String key) {
        return platform.authenticator().authenticate(List.of("Bearer " + key), null).principal();
    }

    /**
     * Calls a tool as the key's holder, through the tool gateway production uses (its allow and deny lists,
     * budget, quota, MCP rate limit and tool-call audit; recorded with the endpoint {@code internal}).
     */
    public dev.lnp.api.mcp.ToolResult callTool(String key, String tool, String argumentsJson) {
        return platform.toolGateway().callWithKey(key, tool, dev.lnp.api.Json.parse(argumentsJson));
    }

    /** The Prometheus text the management listener serves at {@code /metrics}. */
    public String metrics() {
        TestResponse response = send("GET", URI.create("http://127.0.0.1:" + platform.managementPort() + "/metrics"));
        if (response.status() != 200) {
            throw new AssertionError("GET /metrics on the management port answered " + response.status());
        }
        return response.body();
    }

    /**
     * Authenticated requests admitted so far by where their admission came from: {@code database}, {@code cache}
     * or {@code cache_stale} ({@code lnp_admissions_total} on /metrics).
     */
    public long admissions(String outcome) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "(?m)^lnp_admissions_total\\{outcome=\"" + java.util.regex.Pattern.quote(outcome) + "\"\\} (\\S+)$")
                .matcher(metrics());
        if (!m.find()) {
            throw new AssertionError("no lnp_admissions_total{outcome=\"" + outcome + "\"} in /metrics");
        }
        return (long) Double.parseDouble(m.group(1));
    }

    private TestResponse send(String method, URI uri) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                    .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            return new TestResponse(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public HttpClient http() {
        return http;
    }

    @Override
    public void close() {
        platform.close();
        if (ownsDatabase) {
            TestDatabases.dropDatabase(databaseUrl);
        }
    }
}
