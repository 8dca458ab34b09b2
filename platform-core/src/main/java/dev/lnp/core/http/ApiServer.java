package dev.lnp.core.http;

import dev.lnp.core.plugins.PluginRegistry;
import io.helidon.common.socket.SocketOptions;
import io.helidon.health.HealthCheck;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.health.HealthObserver;
import io.helidon.webserver.observe.metrics.MetricsObserver;
import java.time.Duration;
import java.util.List;

/**
 * The Helidon web server: every registered route behind the pipeline, health and metrics under
 * {@code /observe}, and problem+json for unknown routes. Routing is built once, after plugins are loaded.
 */
public final class ApiServer {

    private final WebServer server;

    private ApiServer(WebServer server) {
        this.server = server;
    }

    private static final double OBSERVE_WEIGHT = 200;

    public static ApiServer start(String host, int port, Duration shutdownGrace, PluginRegistry registry,
            PipelineServices services, List<HealthCheck> healthChecks, HttpService console) {
        HttpRouting.Builder routing = HttpRouting.builder();
        routing.addFilter((chain, req, res) -> {
            if (req.path().path().startsWith("/api/v1/") || req.path().path().equals("/api/v1")) {
                res.header(HeaderNames.create("X-API-Version"), "v1");
            }
            chain.proceed();
        });
        for (PluginRegistry.RegisteredRoute route : registry.routes()) {
            routing.route(Method.create(route.spec().method().name()), route.spec().path(),
                    new RouteHandler(route.pluginId(), route.spec(), services));
        }
        // The administration console: server-rendered pages with their own (cookie) authentication.
        routing.register("/console", console);
        // Unknown API routes answer problem+json; anything else (e.g. /observe) is left to the server.
        routing.any("/api/*", (req, res) -> Problems.write(res, RequestIds.of(req, res),
                Problems.routeNotFound(req.prologue().method().text(), req.path().path())));

        var health = HealthObserver.builder().details(true);
        healthChecks.forEach(health::addCheck);
        WebServer server = WebServer.builder()
                .host(host)
                .port(port)
                .shutdownHook(false)
                .shutdownGracePeriod(shutdownGrace)
                // Without TCP_NODELAY a keep-alive response written in two segments (headers, then body) waits
                // for the client's delayed ACK: every request on a reused connection took about 40 ms.
                .connectionOptions(SocketOptions.builder().tcpNoDelay(true).build())
                .addFeature(ObserveFeature.builder()
                        // Above the routing's weight (100): registered after it, /observe would be shadowed by
                        // the catch-all problem+json 404 at the end of the routing.
                        .weight(OBSERVE_WEIGHT)
                        .addObserver(health.build())
                        .addObserver(MetricsObserver.create())
                        .build())
                .routing(routing)
                .build()
                .start();
        return new ApiServer(server);
    }

    public int port() {
        return server.port();
    }

    /** Stops accepting, lets requests in flight finish (up to the grace period), then closes. */
    public void stop() {
        server.stop();
    }
}
