package dev.lnp.web.console;

import dev.lnp.api.internal.platform.ConfigValues;
import java.net.URI;
import java.time.Duration;

/**
 * The console's settings. The base URL ({@code lnp.base.url}, {@code LNP_BASE_URL}) is the origin people use:
 * links in mail point at it, form posts must come from it, and cookies are {@code Secure} when it is https.
 * Unset, it is {@code http://localhost:<port>} of the running server.
 */
public final class ConsoleSettings {

    private final boolean configuredBaseUrl;
    private volatile URI baseUrl;
    private final Duration linkLifetime;
    private final Duration sessionLifetime;
    private final Duration invitationLifetime;
    private final int perAddress;
    private final int perIp;
    private final Duration throttleWindow;
    private final java.util.Set<String> operators;

    public ConsoleSettings(ConfigValues config) {
        this.configuredBaseUrl = config.get("lnp.base.url").filter(s -> !s.isBlank()).isPresent();
        this.baseUrl = config.baseUrl();
        this.linkLifetime = Duration.ofMinutes(Math.min(15, intSetting(config, "lnp.console.link_minutes", 15)));
        this.sessionLifetime = Duration.ofHours(intSetting(config, "lnp.console.session_hours", 12));
        this.invitationLifetime = Duration.ofDays(intSetting(config, "lnp.console.invitation_days", 7));
        this.perAddress = intSetting(config, "lnp.console.sign_in.per_address", 5);
        this.perIp = intSetting(config, "lnp.console.sign_in.per_ip", 30);
        this.throttleWindow = Duration.ofMinutes(15);
        this.operators = config.list("lnp.console.operators").stream().map(e -> e.strip().toLowerCase(java.util.Locale.ROOT))
                .filter(e -> !e.isEmpty()).collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    /**
     * Operators of the deployment ({@code lnp.console.operators}, a list of e-mail addresses) see its local
     * mailbox: every workspace's mail, so no workspace role grants it.
     */
    public boolean isOperator(String email) {
        return email != null && operators.contains(email.toLowerCase(java.util.Locale.ROOT));
    }

    private static int intSetting(ConfigValues config, String key, int fallback) {
        String value = config.get(key).orElse(null);
        if (value == null) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(value.strip());
            if (parsed < 1) {
                throw new NumberFormatException();
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a positive whole number, not " + value);
        }
    }

    /** Called once the server listens: an unset base URL becomes the server's real port. */
    public void serverStarted(int port) {
        if (!configuredBaseUrl) {
            baseUrl = URI.create("http://localhost:" + port);
        }
    }

    public URI baseUrl() {
        return baseUrl;
    }

    /** {@code scheme://host[:port]} of the base URL, as a browser sends it in {@code Origin}. */
    public String origin() {
        URI uri = baseUrl;
        int port = uri.getPort();
        boolean defaultPort = port == -1 || "http".equals(uri.getScheme()) && port == 80
                || "https".equals(uri.getScheme()) && port == 443;
        return uri.getScheme().toLowerCase(java.util.Locale.ROOT) + "://" + uri.getHost().toLowerCase(java.util.Locale.ROOT)
                + (defaultPort ? "" : ":" + port);
    }

    public String link(String pathAndQuery) {
        String base = baseUrl.toString();
        return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + pathAndQuery;
    }

    public boolean secureCookies() {
        return "https".equalsIgnoreCase(baseUrl.getScheme());
    }

    public Duration linkLifetime() {
        return linkLifetime;
    }

    public Duration sessionLifetime() {
        return sessionLifetime;
    }

    public Duration invitationLifetime() {
        return invitationLifetime;
    }

    public int perAddress() {
        return perAddress;
    }

    public int perIp() {
        return perIp;
    }

    public Duration throttleWindow() {
        return throttleWindow;
    }
}
