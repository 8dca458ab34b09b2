package dev.lnp.oauth;

import dev.lnp.api.internal.platform.ConfigValues;
import java.time.Duration;
import java.util.Optional;

/**
 * Where the authorization server and the resource it issues tokens for live, and how long what it issues lasts. The
 * issuer is the deployment's base URL ({@code lnp.base.url}); without one it is the local address of the port the
 * server listens on, known once it started.
 *
 * <p>Client metadata documents are fetched within {@code lnp.oauth.client_metadata.timeout} (5 seconds), never
 * from internal addresses unless their network is in {@code lnp.oauth.client_metadata.allowed_networks}.
 *
 * <p>Access tokens live {@code lnp.oauth.access_token_ttl} (10 minutes unless set; revocation applies on the next
 * request anyway), refresh tokens {@code lnp.oauth.refresh_token_ttl} (30 days), codes two minutes.
 */
final class OAuthSettings {

    /** The one protected resource: the hosted MCP endpoint, and the paths under it. */
    static final String RESOURCE_PATH = "/api/mcp";
    static final String PROTECTED_RESOURCE = "/.well-known/oauth-protected-resource";
    static final String AUTHORIZATION_SERVER = "/.well-known/oauth-authorization-server";
    static final String AUTHORIZE = "/oauth/authorize";
    static final String SIGN_IN = "/oauth/authorize/sign-in";
    static final String TOKEN = "/oauth/token";
    static final String REGISTER = "/oauth/register";
    static final String REVOKE = "/oauth/revoke";
    static final Duration CODE_TTL = Duration.ofMinutes(2);

    private final Optional<String> configuredBase;
    private final Duration accessTtl;
    private final Duration refreshTtl;
    private final java.util.List<String> clientMetadataNetworks;
    private final Duration clientMetadataTimeout;
    private volatile int port;

    OAuthSettings(ConfigValues config) {
        this.configuredBase = config.get("lnp.base.url").map(OAuthSettings::withoutTrailingSlash);
        this.accessTtl = duration(config, "lnp.oauth.access_token_ttl", Duration.ofMinutes(10));
        this.refreshTtl = duration(config, "lnp.oauth.refresh_token_ttl", Duration.ofDays(30));
        this.port = config.getInt("lnp.http.port", 8080);
        this.clientMetadataNetworks = config.list("lnp.oauth.client_metadata.allowed_networks");
        this.clientMetadataTimeout = duration(config, "lnp.oauth.client_metadata.timeout", Duration.ofSeconds(5));
    }

    /** Internal networks a client metadata document may be fetched from (none unless the operator allows some). */
    java.util.List<String> clientMetadataNetworks() {
        return clientMetadataNetworks;
    }

    Duration clientMetadataTimeout() {
        return clientMetadataTimeout;
    }

    void listeningOn(int port) {
        this.port = port;
    }

    /** The issuer identifier: the deployment's origin (and path, when it has one), without a trailing slash. */
    String issuer() {
        return configuredBase.orElseGet(() -> "http://localhost:" + port);
    }

    /** The resource's identifier, the audience of every token: {@code <issuer>/api/mcp}. */
    String resource() {
        return issuer() + RESOURCE_PATH;
    }

    /** Whether a client's {@code resource} (RFC 8707) names this resource; a trailing slash is forgiven. */
    boolean isResource(String requested) {
        String resource = resource();
        return requested.equals(resource) || requested.equals(resource + "/");
    }

    String resourceMetadataUrl() {
        return issuer() + PROTECTED_RESOURCE + RESOURCE_PATH;
    }

    /** Whether a request to {@code path} is a request to the resource. */
    static boolean onResource(String path) {
        return path.equals(RESOURCE_PATH) || path.startsWith(RESOURCE_PATH + "/");
    }

    Duration accessTtl() {
        return accessTtl;
    }

    Duration refreshTtl() {
        return refreshTtl;
    }

    private static Duration duration(ConfigValues config, String key, Duration otherwise) {
        return config.get(key).map(value -> {
            try {
                return Duration.parse(value);
            } catch (java.time.format.DateTimeParseException e) {
                throw new IllegalStateException(key + " must be an ISO-8601 duration such as PT10M, not " + value, e);
            }
        }).orElse(otherwise);
    }

    private static String withoutTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
