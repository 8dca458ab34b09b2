package dev.lnp.server;

import io.helidon.common.socket.SocketOptions;
import io.helidon.health.HealthCheck;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.health.HealthObserver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The Helidon web server's listeners and their protection: the public listener with its connection rules (caps,
 * deadlines, the server's own problem+json answers, HTTP/1.0 health), health under {@code /observe}, and the
 * management listener's metrics. What the public listener routes is the caller's ({@link Routes}).
 */
public final class Listeners {

    private static final System.Logger LOG = System.getLogger(Listeners.class.getName());
    private static final double OBSERVE_WEIGHT = 200;

    /**
     * Where and how the listeners run.
     *
     * @param host {@code lnp.http.host}
     * @param port {@code lnp.http.port}, 0 for any free one
     * @param shutdownGrace how long requests in flight may finish once the server stops
     * @param idleTimeout how long a connection may wait for its next request
     * @param readTimeout how long reading a request's headers, then its body, may take
     */
    public record Settings(String host, int port, Duration shutdownGrace, Duration idleTimeout, Duration readTimeout,
            ConnectionLimits http, ConnectionLimits management) {
    }

    /** What the public listener serves, added after the connection rules' filters. */
    @FunctionalInterface
    public interface Routes {
        /** @param deadlines armed by a handler while it reads a request's body */
        void addTo(HttpRouting.Builder routing, ReadDeadlines deadlines);
    }

    private final WebServer server;
    private final ReadDeadlines deadlines;
    private final List<ConnectionGuard> guards;
    private final CompletableFuture<String> listenerFailure;
    private final boolean management;

    private Listeners(WebServer server, ReadDeadlines deadlines, List<ConnectionGuard> guards,
            CompletableFuture<String> listenerFailure, boolean management) {
        this.server = server;
        this.deadlines = deadlines;
        this.guards = guards;
        this.listenerFailure = listenerFailure;
        this.management = management;
    }

    /**
     * @throws PortUnavailableException when a listener cannot listen, naming its port and setting
     */
    public static Listeners start(Settings settings, ManagementListener management, List<HealthCheck> healthChecks,
            Routes routes) {
        String host = settings.host();
        int port = settings.port();
        PortUnavailableException.checkFree(host, port, PortUnavailableException.HTTP_SETTING);
        if (management.enabled()) {
            PortUnavailableException.checkFree(management.host(), management.port(),
                    PortUnavailableException.MANAGEMENT_SETTING);
        }
        ReadDeadlines deadlines = new ReadDeadlines(settings.readTimeout());
        ConnectionGuard httpGuard = new ConnectionGuard("HTTP", "lnp.http", settings.http());
        ConnectionGuard managementGuard = new ConnectionGuard("management", "lnp.management", settings.management());
        List<ConnectionGuard> guards = List.of(httpGuard, managementGuard);
        HttpRouting.Builder routing = HttpRouting.builder();
        routing.addFilter(httpGuard::markSpoke);
        routing.addFilter(ConnectionRules::closeWhenSaid);
        routes.addTo(routing, deadlines);

        var health = HealthObserver.builder().details(true);
        healthChecks.forEach(health::addCheck);
        WebServer server;
        CompletableFuture<String> listenerFailure = ListenerFailures.watch();
        try {
            server = build(settings, deadlines, httpGuard, managementGuard, routing, health.build(), healthChecks,
                    management).start();
        } catch (RuntimeException e) {
            closeAll(deadlines, guards, listenerFailure);
            throw PortUnavailableException.afterFailedStart(host, port, management, e);
        }
        // Helidon 4.4 logged "Failed to start listener" and returned a server that is not running, on port -1,
        // instead of throwing. Either way the platform must not carry on without its listener.
        if (!server.isRunning() || server.port() <= 0) {
            try {
                server.stop();
            } catch (RuntimeException e) {
                // Nothing is listening; what matters is the error below.
            }
            closeAll(deadlines, guards, listenerFailure);
            throw PortUnavailableException.afterFailedStart(host, port, management, null);
        }
        LOG.log(System.Logger.Level.DEBUG, () -> "Connections: at most " + httpGuard.limits().maxConnections()
                + ", " + httpGuard.limits().maxPerClient() + " per client address, first request line within "
                + httpGuard.limits().firstRequestTimeout().toSeconds() + " s");
        return new Listeners(server, deadlines, guards, listenerFailure, management.enabled());
    }

    private static void closeAll(ReadDeadlines deadlines, List<ConnectionGuard> guards,
            CompletableFuture<String> listenerFailure) {
        deadlines.close();
        guards.forEach(ConnectionGuard::close);
        ListenerFailures.unwatch(listenerFailure);
    }

    private static WebServer build(Settings settings, ReadDeadlines deadlines, ConnectionGuard httpGuard,
            ConnectionGuard managementGuard, HttpRouting.Builder routing, HealthObserver health,
            List<HealthCheck> healthChecks, ManagementListener management) {
        var builder = WebServer.builder()
                .host(settings.host())
                .port(settings.port())
                .shutdownHook(false)
                .shutdownGracePeriod(settings.shutdownGrace());
        ConnectionRules.apply(builder, deadlines, httpGuard, settings.idleTimeout(), healthChecks);
        if (management.enabled()) {
            builder.putSocket(ManagementListener.SOCKET, socket -> socket.host(management.host())
                    .port(management.port())
                    .connectionOptions(managementGuard.options(SocketOptions.builder().tcpNoDelay(true).build())));
            builder.routing(ManagementListener.SOCKET, metricsRouting -> {
                metricsRouting.addFilter(managementGuard::markSpoke);
                management.route(metricsRouting);
            });
        }
        return builder
                .addFeature(ObserveFeature.builder()
                        // Above the routing's weight (100): registered after it, /observe would be shadowed by
                        // the catch-all problem+json 404 at the end of the routing.
                        .weight(OBSERVE_WEIGHT)
                        .addObserver(health)
                        .build())
                .routing(routing)
                .build();
    }

    public int port() {
        return server.port();
    }

    /** The management listener's port (metrics), -1 when it is off. */
    public int managementPort() {
        return management ? server.port(ManagementListener.SOCKET) : -1;
    }

    /**
     * Completed, with the listener's name and the cause, when a listener stops accepting connections on its own
     * (not by {@link #stop()}): the platform cannot serve on that port any more and must be restarted.
     */
    public CompletableFuture<String> listenerFailure() {
        return listenerFailure;
    }

    /** Stops accepting, lets requests in flight finish (up to the grace period), then closes. */
    public void stop() {
        ListenerFailures.unwatch(listenerFailure);
        server.stop();
        closeAll(deadlines, guards, listenerFailure);
    }
}
