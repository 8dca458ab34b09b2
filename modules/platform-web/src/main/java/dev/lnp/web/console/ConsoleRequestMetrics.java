package dev.lnp.web.console;

import dev.lnp.api.internal.platform.PlatformMeters;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * Times the console's requests into {@code http_server_requests_seconds} like the API's, labelled by the route
 * template that answered ({@code /console/connections/{id}}), never the raw path, so ids do not multiply the
 * series. A page that fails is counted with the 500 it answered; one whose handler throws past the console's
 * error page is counted as 500 too (the server answers that).
 */
public final class ConsoleRequestMetrics implements Filter {

    static final String PREFIX = "/console";
    /** The label of a console address no route matched (the console's not-found page). */
    static final String UNMATCHED = PREFIX + "/**";

    private static final java.util.Set<String> KNOWN_METHODS = java.util.Set.of("GET", "HEAD", "POST", "PUT", "PATCH",
            "DELETE", "OPTIONS", "TRACE", "CONNECT");

    private final PlatformMeters metrics;

    public ConsoleRequestMetrics(PlatformMeters metrics) {
        this.metrics = metrics;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        String path = req.path().path();
        if (!path.equals(PREFIX) && !path.startsWith(PREFIX + "/")) {
            chain.proceed();
            return;
        }
        long start = System.nanoTime();
        int status = 500;
        try {
            chain.proceed();
            status = res.status().code();
        } finally {
            metrics.request(method(req.prologue().method().text()), route(req.matchingPattern().orElse(null)), status,
                    System.nanoTime() - start);
        }
    }

    /** The method, or {@code OTHER} for one HTTP does not define: a client may send any token there. */
    static String method(String method) {
        return KNOWN_METHODS.contains(method) ? method : "OTHER";
    }

    /**
     * The route template that answered, or {@link #UNMATCHED}. The console's catch-all (its not-found page) reports
     * the console's prefix as its pattern; its home page is {@code /console/}.
     */
    static String route(String pattern) {
        if (pattern == null || pattern.isEmpty() || pattern.equals(PREFIX) || pattern.equals("/*")
                || pattern.equals("*")) {
            return UNMATCHED;
        }
        if (pattern.equals(PREFIX) || pattern.startsWith(PREFIX + "/")) {
            return pattern;
        }
        return PREFIX + (pattern.startsWith("/") ? pattern : "/" + pattern);
    }
}
