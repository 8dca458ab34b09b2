package dev.lnp.core.http;

import dev.lnp.core.config.PlatformConfig;
import dev.lnp.server.ConnectionLimits;
import dev.lnp.server.Listeners;
import dev.lnp.server.ManagementListener;
import java.util.function.Supplier;

/** The listeners' settings as the deployment's configuration sets them ({@code lnp.http.*}, {@code lnp.management.*}). */
public final class ListenerSettings {

    private ListenerSettings() {
    }

    /** For listeners starting now: the default connection cap depends on the descriptors the process holds. */
    static Listeners.Settings of(PlatformConfig config) {
        Integer firstRequestSeconds = positive(config, "lnp.http.first_request_timeout_seconds");
        return new Listeners.Settings(config.httpHost(), config.httpPort(), config.shutdownGrace(),
                config.httpIdleTimeout(), config.httpReadTimeout(),
                ConnectionLimits.http(positive(config, "lnp.http.max_connections"),
                        positive(config, "lnp.http.max_connections_per_client"), firstRequestSeconds),
                ConnectionLimits.management(positive(config, "lnp.management.max_connections"), firstRequestSeconds));
    }

    /** @param metrics the scrape the listener serves */
    public static ManagementListener management(PlatformConfig config, Supplier<String> metrics) {
        return new ManagementListener(config.get("lnp.management.host").orElse(ManagementListener.DEFAULT_HOST),
                config.getInt("lnp.management.port", ManagementListener.DEFAULT_PORT), metrics);
    }

    /** The setting's value, {@code null} when it is not set. */
    static Integer positive(PlatformConfig config, String key) {
        if (config.get(key).isEmpty()) {
            return null;
        }
        int value = config.getInt(key, 0);
        if (value < 1) {
            throw new IllegalStateException(key + " must be at least 1, not " + value);
        }
        return value;
    }
}
