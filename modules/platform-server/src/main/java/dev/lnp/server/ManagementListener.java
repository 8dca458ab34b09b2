package dev.lnp.server;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * The management listener: {@code GET /metrics} in the Prometheus text format, on a port of its own
 * ({@code lnp.management.port}, default 9464) bound to {@code lnp.management.host} (default 127.0.0.1). Metrics
 * name routes, plugins and volumes, so they are kept off the public port: a scraper on the same host reads them
 * as they are, one elsewhere needs the operator to bind another interface (and a firewall rule) on purpose.
 * Port {@code -1} switches the listener off.
 *
 * @param metrics the scrape, in the Prometheus text format
 */
public record ManagementListener(String host, int port, Supplier<String> metrics) {

    static final String SOCKET = "management";
    static final String PATH = "/metrics";
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 9464;
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** @throws IllegalArgumentException when {@code port} is neither a port, 0 (any free one) nor -1 (none) */
    public ManagementListener {
        if (port < -1 || port > 65535) {
            throw new IllegalArgumentException("lnp.management.port must be a port (0 for any free one) or -1 for "
                    + "none, not " + port);
        }
    }

    public boolean enabled() {
        return port >= 0;
    }

    void route(HttpRouting.Builder routing) {
        routing.get(PATH, (req, res) -> {
            res.header(HeaderNames.CONTENT_TYPE, CONTENT_TYPE);
            res.send(metrics.get().getBytes(StandardCharsets.UTF_8));
        });
    }
}
