package dev.lnp.core.http;

import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.server.Listeners;
import dev.lnp.server.LiteralHeadMatcher;
import dev.lnp.server.ManagementListener;
import io.helidon.health.HealthCheck;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.http.HttpRoute;
import io.helidon.webserver.http.HttpRouting;
import java.util.List;
import java.util.function.Consumer;

/**
 * The public listener's routing: every registered route behind the pipeline, the subsystems' routes, and
 * problem+json for unknown routes. Built once, after plugins are loaded; the listeners themselves, with health
 * under {@code /observe} and metrics on the management listener, are {@link Listeners}.
 */
public final class ApiServer {

    private ApiServer() {
    }

    public static Listeners start(PlatformConfig config, PluginRegistry registry, PipelineServices services,
            List<HealthCheck> healthChecks, ManagementListener management,
            Consumer<HttpRouting.Builder> subsystemRoutes) {
        return Listeners.start(ListenerSettings.of(config), management, healthChecks, (routing, deadlines) -> {
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
                                ? new RawRouteHandler(route.pluginId(), route.spec(), route.surface(), services,
                                        deadlines)
                                : new RouteHandler(route.pluginId(), route.spec(), route.surface(), services,
                                        deadlines)));
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
        });
    }
}
