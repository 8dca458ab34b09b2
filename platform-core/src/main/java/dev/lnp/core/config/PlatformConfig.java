package dev.lnp.core.config;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The deployment's settings: {@code conf/platform.yaml}, overridden by Java system properties
 * ({@code -Dlnp.http.port=9090}), overridden by environment variables ({@code LNP_HTTP_PORT} overrides
 * {@code lnp.http.port}, and so on).
 * Read once at start-up; everything the request path needs is copied into typed fields here.
 */
public final class PlatformConfig {

    private final Config config;

    private PlatformConfig(Config config) {
        this.config = config;
    }

    /**
     * @param yaml the configuration file; missing is allowed (every key has a default)
     * @param overrides highest-precedence values, e.g. from a test
     */
    public static PlatformConfig load(Path yaml, Map<String, String> env, Map<String, String> overrides) {
        var builder = Config.builder()
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .addSource(ConfigSources.create(overrides).name("overrides"))
                .addSource(ConfigSources.create(environmentKeys(env)).name("environment"))
                .addSource(ConfigSources.systemProperties());
        if (yaml != null && Files.isRegularFile(yaml)) {
            // Read here and handed over as YAML: Helidon's file source would first detect the file's media type,
            // whose detectors take a noticeable part of a start.
            String text;
            try {
                text = Files.readString(yaml);
            } catch (java.io.IOException | java.io.UncheckedIOException e) {
                throw new IllegalStateException("cannot read the configuration file " + yaml + ": " + e.getMessage(), e);
            }
            builder.addSource(ConfigSources.create(text, io.helidon.common.media.type.MediaTypes.APPLICATION_YAML));
        }
        try {
            return new PlatformConfig(builder.build());
        } catch (io.helidon.config.ConfigException e) {
            throw new IllegalStateException("the configuration file " + yaml + " is not valid YAML: "
                    + (e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage()
                            : e.getMessage()).lines().findFirst().orElse(""), e);
        }
    }

    public static PlatformConfig fromEnvironment(Map<String, String> overrides) {
        Map<String, String> env = System.getenv();
        return load(configFile(env), env, overrides);
    }

    /** {@code LNP_CONFIG}, else {@code conf/platform.yaml} under {@code LNP_HOME} or the working directory. */
    public static Path configFile(Map<String, String> env) {
        if (env.containsKey("LNP_CONFIG")) {
            return Path.of(env.get("LNP_CONFIG"));
        }
        return Path.of(env.getOrDefault("LNP_HOME", "."), "conf", "platform.yaml");
    }

    /**
     * {@code LNP_HTTP_PORT=9090} becomes {@code lnp.http.port=9090}. A double underscore keeps an underscore
     * ({@code LNP_LIMITS_REST__PER__MINUTE} is {@code lnp.limits.rest_per_minute}), as a dash is not allowed.
     */
    static Map<String, String> environmentKeys(Map<String, String> env) {
        var mapped = new java.util.HashMap<String, String>();
        env.forEach((name, value) -> {
            if (name.startsWith("LNP_")) {
                String key = name.toLowerCase(java.util.Locale.ROOT)
                        .replace("__", "\u0000").replace('_', '.').replace('\u0000', '_');
                mapped.put(key, value);
            }
        });
        return mapped;
    }

    public int httpPort() {
        return config.get("lnp.http.port").asInt().orElse(8080);
    }

    public String httpHost() {
        return config.get("lnp.http.host").asString().orElse("0.0.0.0");
    }

    public Optional<String> databaseUrl() {
        return config.get("lnp.database.url").asString().asOptional().filter(s -> !s.isBlank());
    }

    public Optional<String> databaseUser() {
        return config.get("lnp.database.user").asString().asOptional().filter(s -> !s.isBlank());
    }

    public Optional<String> databasePassword() {
        return config.get("lnp.database.password").asString().asOptional();
    }

    /** At least 2: Flyway holds two connections while it reads or migrates a schema's history, so a start with a
     * pool of one would wait for itself until the pool's timeout. */
    public int databasePoolSize() {
        int size = config.get("lnp.database.pool.size").asInt().orElse(16);
        if (size < 2) {
            throw new IllegalStateException("lnp.database.pool.size is " + size
                    + ": it must be at least 2 (a start's migrations hold two connections at once)");
        }
        return size;
    }

    public Path dataDir() {
        return Path.of(config.get("lnp.data.dir").asString().orElse("./data")).toAbsolutePath().normalize();
    }

    /** The user the embedded PostgreSQL runs as when the platform runs as root. */
    public String embeddedDatabaseUser() {
        return config.get("lnp.database.embedded.user").asString().orElse("nobody");
    }

    public URI baseUrl() {
        return URI.create(config.get("lnp.base.url").asString().orElse("http://localhost:" + httpPort()));
    }

    public Path pluginsDir() {
        return Path.of(config.get("lnp.plugins.dir").asString().orElse("./plugins")).toAbsolutePath().normalize();
    }

    /** Plugin ids to load; empty means every plugin found. */
    public List<String> pluginsEnabled() {
        return list("lnp.plugins.enabled");
    }

    public List<String> pluginsDisabled() {
        return list("lnp.plugins.disabled");
    }

    public long maxBodyBytes() {
        return config.get("lnp.http.max_body_bytes").asLong().orElse(1_048_576L);
    }

    public Duration shutdownGrace() {
        return Duration.ofSeconds(config.get("lnp.http.shutdown_grace_seconds").asLong().orElse(20L));
    }

    /** How long one read from a client may wait: a stalled header, body or idle keep-alive connection ends. */
    public Duration httpReadTimeout() {
        return Duration.ofSeconds(config.get("lnp.http.read_timeout_seconds").asLong().orElse(30L));
    }

    /** How long a connection may go without a request before the server closes it. */
    public Duration httpIdleTimeout() {
        return Duration.ofSeconds(config.get("lnp.http.idle_timeout_seconds").asLong().orElse(60L));
    }

    public Optional<String> get(String key) {
        return config.get(key).asString().asOptional();
    }

    public int getInt(String key, int defaultValue) {
        return config.get(key).asInt().orElse(defaultValue);
    }

    public long getLong(String key, long defaultValue) {
        return config.get(key).asLong().orElse(defaultValue);
    }

    /** A list given either as a YAML sequence or as one comma-separated string (the form env variables allow). */
    public List<String> list(String key) {
        Config node = config.get(key);
        var text = node.asString().asOptional();
        if (text.isPresent()) {
            return Arrays.stream(text.get().split(",")).map(String::trim).filter(v -> !v.isEmpty()).toList();
        }
        return node.asList(String.class).orElse(List.of()).stream().map(String::trim)
                .filter(s -> !s.isEmpty()).toList();
    }
}
