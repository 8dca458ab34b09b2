package dev.lnp.plugins.chatbot;

import java.net.URI;
import java.util.Locale;

/** Web origins as the widget compares them: {@code scheme://host[:port]}, lower case, no default port. */
final class Origins {

    private Origins() {
    }

    /** The normalized origin, or {@code null} when {@code value} is not exactly an origin (path, query, wildcard...). */
    static String normalize(String value) {
        if (value == null || value.isBlank() || value.contains("*")) {
            return null;
        }
        try {
            URI uri = new URI(value.strip());
            String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!"http".equals(scheme) && !"https".equals(scheme) || uri.getHost() == null
                    || uri.getRawUserInfo() != null || uri.getRawQuery() != null || uri.getRawFragment() != null
                    || uri.getRawPath() != null && !uri.getRawPath().isEmpty()) {
                return null;
            }
            int port = uri.getPort();
            boolean defaultPort = port == -1 || scheme.equals("http") && port == 80 || scheme.equals("https") && port == 443;
            return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port);
        } catch (java.net.URISyntaxException e) {
            return null;
        }
    }
}
