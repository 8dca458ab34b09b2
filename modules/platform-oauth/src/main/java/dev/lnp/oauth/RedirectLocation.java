package dev.lnp.oauth;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** A redirect URI with query parameters added (RFC 6749 §4.1.2: keeping the query the client registered). */
final class RedirectLocation {

    private RedirectLocation() {
    }

    /** {@code uri} with each {@code name, value} pair whose value is not null appended to its query. */
    static String of(String uri, String... namesAndValues) {
        StringBuilder out = new StringBuilder(uri);
        char separator = uri.contains("?") ? '&' : '?';
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            if (namesAndValues[i + 1] == null) {
                continue;
            }
            out.append(separator).append(namesAndValues[i]).append('=')
                    .append(URLEncoder.encode(namesAndValues[i + 1], StandardCharsets.UTF_8));
            separator = '&';
        }
        return out.toString();
    }
}
