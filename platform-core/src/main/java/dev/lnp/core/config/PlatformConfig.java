package dev.lnp.core.config;

import dev.lnp.database.DatabaseSettings;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * The deployment's settings: {@code conf/platform.yaml}, overridden by Java system properties
 * ({@code -Dlnp.http.port=9090}), overridden by environment variables ({@code LNP_HTTP_PORT} overrides
 * {@code lnp.http.port}, and so on).
 * Read once at start-up into one map of dotted keys; everything the request path needs is copied into typed
 * fields here. The file is read with SnakeYAML directly: building Helidon's configuration for it (providers,
 * mappers, filters) took 130-230 ms of a restart (docs/architecture.md, "Hand-written where a standard exists").
 *
 * <p>A YAML list is kept as {@code key.0}, {@code key.1}…; a YAML timestamp as written; {@code null} as the empty
 * string; a boolean as {@code true} or {@code false} (YAML's {@code yes}, {@code on}… included). A higher source's
 * value for a key replaces everything the lower sources have at or under that key. A value may name another
 * setting as {@code ${key}}; a name that is not set stays as written.
 */
public final class PlatformConfig implements dev.lnp.api.internal.platform.ConfigValues, DatabaseSettings {

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([^}]+)}");

    private final Map<String, String> values;

    private PlatformConfig(Map<String, String> values) {
        this.values = values;
    }

    /**
     * @param yaml the configuration file; missing is allowed (every key has a default)
     * @param overrides highest-precedence values, e.g. from a test
     */
    public static PlatformConfig load(Path yaml, Map<String, String> env, Map<String, String> overrides) {
        Map<String, String> values = new HashMap<>();
        if (yaml != null && Files.isRegularFile(yaml)) {
            String text;
            try {
                text = Files.readString(yaml);
            } catch (java.io.IOException | java.io.UncheckedIOException e) {
                throw new IllegalStateException("cannot read the configuration file " + yaml + ": " + e.getMessage(), e);
            }
            flatten("", parse(yaml, text), values);
        }
        Map<String, String> properties = new HashMap<>();
        System.getProperties().forEach((key, value) -> properties.put(key.toString(), value.toString()));
        over(values, properties);
        over(values, environmentKeys(env));
        over(values, overrides);
        return new PlatformConfig(values);
    }

    private static Object parse(Path yaml, String text) {
        Object root;
        try {
            root = new Yaml(new SettingsConstructor()).load(text);
        } catch (YAMLException e) {
            throw new IllegalStateException("the configuration file " + yaml + " is not valid YAML: "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
        }
        if (root != null && !(root instanceof Map)) {
            throw new IllegalStateException("the configuration file " + yaml + " is not valid YAML: its top level"
                    + " must be a mapping of settings (such as lnp:), not a " + (root instanceof List ? "list" : "value"));
        }
        return root;
    }

    /** Keeps timestamps as written: {@code lnp.keys.legacy_until} is read as an ISO-8601 instant. */
    private static final class SettingsConstructor extends SafeConstructor {
        SettingsConstructor() {
            super(new LoaderOptions());
            yamlConstructors.put(Tag.TIMESTAMP, new ConstructYamlStr());
        }
    }

    private static void flatten(String key, Object node, Map<String, String> into) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((name, child) -> flatten(key.isEmpty() ? String.valueOf(name) : key + "." + name, child, into));
        } else if (node instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                flatten(key + "." + i, list.get(i), into);
            }
        } else if (!key.isEmpty()) {
            into.put(key, node == null ? "" : String.valueOf(node));
        }
    }

    /** A higher source's key replaces the lower sources' value at that key and everything under it. */
    private static void over(Map<String, String> values, Map<String, String> higher) {
        higher.forEach((key, value) -> {
            String under = key + ".";
            values.keySet().removeIf(k -> k.startsWith(under));
            values.put(key, value);
        });
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
        return getInt("lnp.http.port", 8080);
    }

    public String httpHost() {
        return get("lnp.http.host").orElse("0.0.0.0");
    }

    public Optional<String> databaseUrl() {
        return get("lnp.database.url").filter(s -> !s.isBlank());
    }

    public Optional<String> databaseUser() {
        return get("lnp.database.user").filter(s -> !s.isBlank());
    }

    public Optional<String> databasePassword() {
        return get("lnp.database.password");
    }

    /** At least 2: Flyway holds two connections while it reads or migrates a schema's history, so a start with a
     * pool of one would wait for itself until the pool's timeout. */
    public int databasePoolSize() {
        int size = getInt("lnp.database.pool.size", 16);
        if (size < 2) {
            throw new IllegalStateException("lnp.database.pool.size is " + size
                    + ": it must be at least 2 (a start's migrations hold two connections at once)");
        }
        return size;
    }

    public Path dataDir() {
        return Path.of(get("lnp.data.dir").orElse("./data")).toAbsolutePath().normalize();
    }

    /** The user the embedded PostgreSQL runs as when the platform runs as root. */
    public String embeddedDatabaseUser() {
        return get("lnp.database.embedded.user").orElse("nobody");
    }

    public URI baseUrl() {
        return URI.create(get("lnp.base.url").orElse("http://localhost:" + httpPort()));
    }

    public Path pluginsDir() {
        return Path.of(get("lnp.plugins.dir").orElse("./plugins")).toAbsolutePath().normalize();
    }

    /** Plugin ids to load; empty means every plugin found. */
    public List<String> pluginsEnabled() {
        return list("lnp.plugins.enabled");
    }

    public List<String> pluginsDisabled() {
        return list("lnp.plugins.disabled");
    }

    public long maxBodyBytes() {
        return getLong("lnp.http.max_body_bytes", 1_048_576L);
    }

    public Duration shutdownGrace() {
        return Duration.ofSeconds(getLong("lnp.http.shutdown_grace_seconds", 20L));
    }

    /** How long one read from a client may wait: a stalled header, body or idle keep-alive connection ends. */
    public Duration httpReadTimeout() {
        return Duration.ofSeconds(getLong("lnp.http.read_timeout_seconds", 30L));
    }

    /** How long a connection may go without a request before the server closes it. */
    public Duration httpIdleTimeout() {
        return Duration.ofSeconds(getLong("lnp.http.idle_timeout_seconds", 60L));
    }

    /** The setting's value, its {@code ${key}} references resolved; empty when it is not set. */
    public Optional<String> get(String key) {
        return Optional.ofNullable(values.get(key)).map(value -> resolved(key, value, 0));
    }

    public int getInt(String key, int defaultValue) {
        long value = getLong(key, defaultValue);
        if (value != (int) value) {
            throw new IllegalStateException(key + " must be a whole number from " + Integer.MIN_VALUE + " to "
                    + Integer.MAX_VALUE + ", not " + value);
        }
        return (int) value;
    }

    public long getLong(String key, long defaultValue) {
        Optional<String> value = get(key);
        if (value.isEmpty()) {
            return defaultValue;
        }
        try {
            return Long.parseLong(value.get().strip());
        } catch (NumberFormatException e) {
            throw new IllegalStateException(key + " must be a whole number, not \"" + value.get() + "\"");
        }
    }

    /** A list given either as a YAML sequence or as one comma-separated string (the form env variables allow). */
    public List<String> list(String key) {
        var text = get(key);
        if (text.isPresent()) {
            return Arrays.stream(text.get().split(",")).map(String::trim).filter(v -> !v.isEmpty()).toList();
        }
        List<String> items = new java.util.ArrayList<>();
        for (int i = 0; values.containsKey(key + "." + i); i++) {
            String item = get(key + "." + i).orElseThrow().trim();
            if (!item.isEmpty()) {
                items.add(item);
            }
        }
        return List.copyOf(items);
    }

    /** {@code ${other.key}} replaced by that setting's value (itself resolved); an unknown name stays as written. */
    private String resolved(String key, String value, int depth) {
        if (value.indexOf("${") < 0) {
            return value;
        }
        if (depth > 16) {
            throw new IllegalStateException(key + " refers to settings in a loop: " + value);
        }
        Matcher reference = REFERENCE.matcher(value);
        StringBuilder out = new StringBuilder();
        while (reference.find()) {
            String name = reference.group(1);
            String found = values.get(name);
            reference.appendReplacement(out, Matcher.quoteReplacement(
                    found == null ? reference.group() : resolved(name, found, depth + 1)));
        }
        reference.appendTail(out);
        return out.toString();
    }
}
