package dev.lnp.cli;

import dev.lnp.api.Json;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.plugins.PluginRegistry;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "routes", mixinStandardHelpOptions = true,
        description = "Print every registered route with its plugin and scope (loads plugins; needs no database).")
final class RoutesCommand implements Callable<Integer> {

    @Option(names = {"-v", "--verbose"},
            description = "Also print each route's body schema (the file it was read from) and handler class.")
    boolean verbose;

    @Override
    public Integer call() {
        QuietLogging.install();
        PlatformConfig config = PlatformConfig.fromEnvironment(Map.of());
        try (var plugins = new Plugins(config)) {
            PluginRegistry registry = plugins.registry(config);
            System.out.println(line("METHOD", "PATH", "PLUGIN", "SCOPE", "SCHEMA", "HANDLER"));
            for (var route : registry.routes()) {
                RouteSpec spec = route.spec();
                System.out.println(line(spec.method().name(), spec.path(), route.pluginId(),
                        spec.isPublic() ? "(public)" : spec.scope(), schema(spec), handlerClass(spec)));
            }
            return 0;
        }
    }

    private String line(String method, String path, String plugin, String scope, String schema, String handler) {
        String base = String.format("%-7s %-48s %-10s %s", method, path, plugin, scope);
        return verbose ? String.format("%-7s %-48s %-10s %-18s %-44s %s", method, path, plugin, scope, schema, handler)
                : base;
    }

    /** The body schema's file (or how it was derived from one); "-" without a body, "(in code)" when built there. */
    static String schema(RouteSpec spec) {
        if (spec.bodySchema() == null) {
            return "-";
        }
        return Json.sourceOf(spec.bodySchema()).orElse("(in code)");
    }

    /** The class the handler's code lives in: a method reference or lambda names its enclosing class. */
    static String handlerClass(RouteSpec spec) {
        Object handler = spec.handler() != null ? spec.handler() : spec.rawHandler();
        String name = handler.getClass().getName();
        int lambda = name.indexOf("$$Lambda");
        return lambda < 0 ? name : name.substring(0, lambda);
    }
}
