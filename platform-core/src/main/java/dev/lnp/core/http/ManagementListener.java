package dev.lnp.core.http;

import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.metrics.PlatformMetrics;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import java.nio.charset.StandardCharsets;

/**
 * The management listener: {@code GET /metrics} in the Prometheus text format, on a port of its own
 * ({@code lnp.management.port}, default 9464) bound to {@code lnp.management.host} (default 127.0.0.1). Metrics
 * name routes, plugins and volumes, so they are kept off the public port: a scraper on the same host reads them
 * as they are, one elsewhere needs the operator to bind another interface (and a firewall rule) on purpose.
 * Port {@code -1} switches the listener off.
 */
public record ManagementListener(String host, int port, PlatformMetrics metrics) {

    public static final String SOCKET = "management";
    public static final String PATH = "/metrics";
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    public static ManagementListener from(PlatformConfig config, PlatformMetrics metrics) {
        int port = config.getInt("lnp.management.port", 9464);
        if (port < -1 || port > 65535) {
            throw new IllegalArgumentException("lnp.management.port must be a port (0 for any free one) or -1 for "
                    + "none, not " + port);
        }
        return new ManagementListener(config.get("lnp.management.host").orElse("127.0.0.1"), port, metrics);
    }

    public boolean enabled() {
        return port >= 0;
    }

    void route(HttpRouting.Builder routing) {
        routing.get(PATH, (req, res) -> {
            res.header(HeaderNames.CONTENT_TYPE, CONTENT_TYPE);
            res.send(metrics.scrape().getBytes(StandardCharsets.UTF_8));
        });
    }
}
