package dev.lnp.core.http;

import dev.lnp.core.plugins.PluginRegistry;
import io.helidon.common.socket.SocketOptions;
import io.helidon.health.HealthCheck;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRoute;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.health.HealthObserver;
import java.time.Duration;
import java.util.List;

/**
 * The Helidon web server: every registered route behind the pipeline, health under {@code /observe}, and
 * problem+json for unknown routes; metrics on the separate management listener. Routing is built once, after plugins are loaded.
 */
public final class ApiServer {

    private final WebServer server;
    private final ReadDeadlines deadlines;
    private final boolean management;

    private ApiServer(WebServer server, ReadDeadlines deadlines, boolean management) {
        this.server = server;
        this.deadlines = deadlines;
        this.management = management;
    }

    private static final double OBSERVE_WEIGHT = 200;

    public static ApiServer start(String host, int port, Duration shutdownGrace, Duration readTimeout,
            Duration idleTimeout, PluginRegistry registry, PipelineServices services, List<HealthCheck> healthChecks,
            ManagementListener management, HttpService console) {
        PortUnavailableException.checkFree(host, port, PortUnavailableException.HTTP_SETTING);
        if (management.enabled()) {
            PortUnavailableException.checkFree(management.host(), management.port(),
                    PortUnavailableException.MANAGEMENT_SETTING);
        }
        ReadDeadlines deadlines = new ReadDeadlines(readTimeout);
        HttpRouting.Builder routing = HttpRouting.builder();
        routing.addFilter(ConnectionRules::closeWhenSaid);
        routing.addFilter((chain, req, res) -> {
            if (req.path().path().startsWith("/api/v1/") || req.path().path().equals("/api/v1")) {
                res.header(HeaderNames.create("X-API-Version"), "v1");
            }
            chain.proceed();
        });
        for (PluginRegistry.RegisteredRoute route : registry.routes()) {
            routing.route(HttpRoute.builder()
                    .methods(Method.create(route.spec().method().name()))
                    .path(LiteralHeadMatcher.of(route.spec().path()))
                    .handler(route.spec().isRaw()
                            ? new RawRouteHandler(route.pluginId(), route.spec(), route.surface(), services, deadlines)
                            : new RouteHandler(route.pluginId(), route.spec(), route.surface(), services, deadlines)));
        }
        routing.get(Favicon.PATH, Favicon::answer);
        // The administration console: server-rendered pages with their own (cookie) authentication.
        routing.register("/console", console);
        // Unknown API routes answer problem+json; anything else (e.g. /observe) is left to the server.
        routing.any("/api/*", (req, res) -> Problems.write(res, RequestIds.of(req, res),
                Problems.routeNotFound(req.prologue().method().text(), req.path().path())));

        var health = HealthObserver.builder().details(true);
        healthChecks.forEach(health::addCheck);
        WebServer server;
        try {
            server = build(host, port, shutdownGrace, idleTimeout, deadlines, routing, health.build(), healthChecks,
                    management).start();
        } catch (RuntimeException e) {
            deadlines.close();
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
            deadlines.close();
            throw PortUnavailableException.afterFailedStart(host, port, management, null);
        }
        return new ApiServer(server, deadlines, management.enabled());
    }

    private static WebServer build(String host, int port, Duration shutdownGrace, Duration idleTimeout,
            ReadDeadlines deadlines, HttpRouting.Builder routing, HealthObserver health,
            List<HealthCheck> healthChecks, ManagementListener management) {
        var builder = WebServer.builder()
                .host(host)
                .port(port)
                .shutdownHook(false)
                .shutdownGracePeriod(shutdownGrace);
        ConnectionRules.apply(builder, deadlines, idleTimeout, healthChecks);
        if (management.enabled()) {
            builder.putSocket(ManagementListener.SOCKET, socket -> socket.host(management.host())
                    .port(management.port()).connectionOptions(SocketOptions.builder().tcpNoDelay(true).build()));
            builder.routing(ManagementListener.SOCKET, management::route);
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

    /** Stops accepting, lets requests in flight finish (up to the grace period), then closes. */
    public void stop() {
        server.stop();
        deadlines.close();
    }
}
