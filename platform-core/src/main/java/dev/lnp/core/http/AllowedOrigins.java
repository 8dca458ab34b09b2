package dev.lnp.core.http;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.core.config.PlatformConfig;
import java.net.URI;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The browser origins allowed to call the MCP surface: the origin of {@code lnp.base.url} and those listed in
 * {@code lnp.mcp.allowed_origins}. A request without {@code Origin} (every non-browser client) passes; a present
 * one that is not listed is refused with 403, as MCP's Streamable HTTP transport requires against DNS rebinding.
 * The request's own {@code Host} is deliberately not trusted: under DNS rebinding it is the attacker's name.
 */
final class AllowedOrigins {

    private final Set<String> origins;

    private AllowedOrigins(Set<String> origins) {
        this.origins = origins;
    }

    static AllowedOrigins from(PlatformConfig config) {
        Set<String> origins = new LinkedHashSet<>();
        origins.add(normalize(config.baseUrl().toString()));
        config.list("lnp.mcp.allowed_origins").forEach(o -> origins.add(normalize(o)));
        origins.remove(null);
        return new AllowedOrigins(Set.copyOf(origins));
    }

    void check(List<String> headerValues) {
        if (headerValues.isEmpty()) {
            return;
        }
        String origin = headerValues.size() == 1 ? normalize(headerValues.get(0)) : null;
        if (origin == null || !origins.contains(origin)) {
            throw new ApiProblem(403, "origin_not_allowed", "Forbidden", "Requests from the origin "
                    + String.join(", ", headerValues) + " are not accepted; a browser client's origin must be "
                    + "listed in lnp.mcp.allowed_origins.");
        }
    }

    /** {@code scheme://host[:port]} in lower case, without a default port; {@code null} when not an origin. */
    static String normalize(String origin) {
        try {
            URI uri = URI.create(origin.strip());
            if (uri.getScheme() == null || uri.getHost() == null) {
                return null;
            }
            String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
            int port = uri.getPort();
            boolean defaultPort = port == -1 || scheme.equals("http") && port == 80 || scheme.equals("https") && port == 443;
            return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
