package dev.lnp.core.http;

import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.plugins.PluginRegistry;
import io.helidon.common.socket.SocketOptions;
import io.helidon.health.HealthCheck;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRoute;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.health.HealthObserver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The Helidon web server: every registered route behind the pipeline, health under {@code /observe}, and
 * problem+json for unknown routes; metrics on the separate management listener. Routing is built once, after plugins are loaded.
 */
public final class ApiServer {

    private static final System.Logger LOG = System.getLogger(ApiServer.class.getName());

    private final WebServer server;
    private final ReadDeadlines deadlines;
    private final List<ConnectionGuard> guards;
    private final CompletableFuture<String> listenerFailure;
    private final boolean management;

    private ApiServer(WebServer server, ReadDeadlines deadlines, List<ConnectionGuard> guards,
            CompletableFuture<String> listenerFailure, boolean management) {
        this.server = server;
        this.deadlines = deadlines;
        this.guards = guards;
        this.listenerFailure = listenerFailure;
        this.management = management;
    }

    private static final double OBSERVE_WEIGHT = 200;

    public static ApiServer start(PlatformConfig config, PluginRegistry registry, PipelineServices services,
            List<HealthCheck> healthChecks, ManagementListener management,
            java.util.function.Consumer<HttpRouting.Builder> subsystemRoutes) {
        String host = config.httpHost();
        int port = config.httpPort();
        PortUnavailableException.checkFree(host, port, PortUnavailableException.HTTP_SETTING);
        if (management.enabled()) {
            PortUnavailableException.checkFree(management.host(), management.port(),
                    PortUnavailableException.MANAGEMENT_SETTING);
        }
        ReadDeadlines deadlines = new ReadDeadlines(config.httpReadTimeout());
        ConnectionGuard httpGuard = new ConnectionGuard("HTTP", "lnp.http", ConnectionLimits.http(config));
        ConnectionGuard managementGuard = new ConnectionGuard("management", "lnp.management",
                ConnectionLimits.management(config));
        List<ConnectionGuard> guards = List.of(httpGuard, managementGuard);
        HttpRouting.Builder routing = HttpRouting.builder();
        routing.addFilter(httpGuard::markSpoke);
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
        // What the kernel's subsystems serve outside the plugin routes: the console under /console, its favicon.
        subsystemRoutes.accept(routing);
        // Unknown API routes answer problem+json; anything else (e.g. /observe) is left to the server.
        routing.any("/api/*", (req, res) -> Problems.write(res, RequestIds.of(req, res),
                Problems.routeNotFound(req.prologue().method().text(), req.path().path())));
        // Every other path nothing serves (/observe/health is the observe feature's, routed before this): a
        // problem+json 404 saying so, rather than the server's own answer for requests it could not read.
        routing.any((req, res) -> Problems.write(res, RequestIds.of(req, res),
                Problems.nothingAt(req.path().path())));

        var health = HealthObserver.builder().details(true);
        healthChecks.forEach(health::addCheck);
        WebServer server;
        CompletableFuture<String> listenerFailure = ListenerFailures.watch();
        try {
            server = build(host, port, config.shutdownGrace(), config.httpIdleTimeout(), deadlines, httpGuard,
                    managementGuard, routing, health.build(), healthChecks, management).start();
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
        return new ApiServer(server, deadlines, guards, listenerFailure, management.enabled());
    }

    private static void closeAll(ReadDeadlines deadlines, List<ConnectionGuard> guards,
            CompletableFuture<String> listenerFailure) {
        deadlines.close();
        guards.forEach(ConnectionGuard::close);
        ListenerFailures.unwatch(listenerFailure);
    }

    private static WebServer build(String host, int port, Duration shutdownGrace, Duration idleTimeout,
            ReadDeadlines deadlines, ConnectionGuard httpGuard, ConnectionGuard managementGuard,
            HttpRouting.Builder routing, HealthObserver health, List<HealthCheck> healthChecks,
            ManagementListener management) {
        var builder = WebServer.builder()
                .host(host)
                .port(port)
                .shutdownHook(false)
                .shutdownGracePeriod(shutdownGrace);
        ConnectionRules.apply(builder, deadlines, httpGuard, idleTimeout, healthChecks);
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
