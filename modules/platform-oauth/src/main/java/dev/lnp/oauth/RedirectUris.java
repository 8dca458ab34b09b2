package dev.lnp.oauth;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * Which redirect URIs a client may register (OAuth 2.1 §2.3.1, RFC 8252 for native apps): {@code https} anywhere, or
 * {@code http} on the loopback interface only ({@code localhost}, {@code 127.0.0.1}, {@code [::1]}), absolute,
 * without a fragment and without user information. Private-use schemes of native apps are not accepted: an MCP
 * client on the desktop listens on the loopback interface.
 */
final class RedirectUris {

    private RedirectUris() {
    }

    /** Why {@code uri} cannot be registered, or empty when it can. */
    static Optional<String> problem(String uri) {
        URI parsed;
        try {
            parsed = new URI(uri);
        } catch (URISyntaxException | NullPointerException e) {
            return Optional.of("is not a URI: " + uri);
        }
        if (!parsed.isAbsolute() || parsed.getHost() == null) {
            return Optional.of("must be an absolute URI with a host: " + uri);
        }
        if (parsed.getRawFragment() != null) {
            return Optional.of("must not have a fragment: " + uri);
        }
        if (parsed.getRawUserInfo() != null) {
            return Optional.of("must not carry user information: " + uri);
        }
        String scheme = parsed.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("https")) {
            return Optional.empty();
        }
        if (scheme.equals("http") && loopback(parsed.getHost())) {
            return Optional.empty();
        }
        return Optional.of("must use https, or http on the loopback interface (localhost, 127.0.0.1, [::1]): " + uri);
    }

    private static boolean loopback(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.equals("localhost") || h.equals("127.0.0.1") || h.equals("[::1]") || h.equals("::1");
    }

    /**
     * Whether {@code requested} is {@code registered}: exactly, except that the port of a loopback redirect may
     * differ (RFC 8252 §7.3: a native app takes whatever port is free when it asks).
     */
    static boolean matches(String registered, String requested) {
        if (registered.equals(requested)) {
            return true;
        }
        try {
            URI a = new URI(registered);
            URI b = new URI(requested);
            return "http".equalsIgnoreCase(a.getScheme()) && "http".equalsIgnoreCase(b.getScheme())
                    && a.getHost() != null && loopback(a.getHost()) && a.getHost().equalsIgnoreCase(b.getHost())
                    && java.util.Objects.equals(a.getRawPath(), b.getRawPath())
                    && java.util.Objects.equals(a.getRawQuery(), b.getRawQuery()) && b.getRawFragment() == null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** The host a person sees on the consent page (with the port when not the scheme's default). */
    static String host(String uri) {
        try {
            URI parsed = new URI(uri);
            return parsed.getPort() < 0 ? parsed.getHost() : parsed.getHost() + ":" + parsed.getPort();
        } catch (URISyntaxException e) {
            return uri;
        }
    }
}
