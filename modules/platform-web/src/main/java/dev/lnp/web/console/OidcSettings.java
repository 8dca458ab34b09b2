package dev.lnp.web.console;

import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import dev.lnp.api.internal.platform.ConfigValues;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * The deployment's OpenID Connect provider for signing people in ({@code lnp.oidc.*}). Without
 * {@code lnp.oidc.issuer} there is none and sign-in is by e-mailed link only. A setting that is wrong is refused
 * with a message naming it, so the platform does not start (and the doctor fails) rather than failing at the first
 * sign-in.
 *
 * @param displayName the button's label: "Sign in with {displayName}"
 * @param groupsClaim the ID token claim that lists the person's groups, which workspaces map to roles
 */
public record OidcSettings(Issuer issuer, ClientID clientId, Secret clientSecret, String displayName, Scope scopes,
        String groupsClaim) {

    static final String ISSUER = "lnp.oidc.issuer";
    static final String CLIENT_ID = "lnp.oidc.client_id";
    static final String CLIENT_SECRET = "lnp.oidc.client_secret";
    static final String CLIENT_SECRET_FILE = "lnp.oidc.client_secret_file";
    static final String DISPLAY_NAME = "lnp.oidc.display_name";
    static final String SCOPES = "lnp.oidc.scopes";
    static final String GROUPS_CLAIM = "lnp.oidc.groups_claim";

    private static final int MAX_DISPLAY_NAME = 60;

    /** The provider the configuration names; empty when {@code lnp.oidc.issuer} is not set. */
    public static Optional<OidcSettings> from(ConfigValues config) {
        String issuer = value(config, ISSUER);
        if (issuer == null) {
            return Optional.empty();
        }
        checkIssuer(issuer);
        String clientId = value(config, CLIENT_ID);
        if (clientId == null) {
            throw new IllegalArgumentException(CLIENT_ID + " is required when " + ISSUER + " is set: the client id "
                    + "the provider gave this platform");
        }
        String displayName = Optional.ofNullable(value(config, DISPLAY_NAME)).orElse("single sign-on");
        if (displayName.length() > MAX_DISPLAY_NAME) {
            throw new IllegalArgumentException(DISPLAY_NAME + " is the sign-in button's label: at most "
                    + MAX_DISPLAY_NAME + " characters");
        }
        Scope scopes = Scope.parse(Optional.ofNullable(value(config, SCOPES)).orElse("openid email profile")
                .replace(',', ' '));
        if (scopes == null || !scopes.contains("openid") || !scopes.contains("email")) {
            throw new IllegalArgumentException(SCOPES + " must include openid and email (people are matched by their "
                    + "verified e-mail address), not " + value(config, SCOPES));
        }
        String groupsClaim = Optional.ofNullable(value(config, GROUPS_CLAIM)).orElse("groups");
        return Optional.of(new OidcSettings(new Issuer(issuer), new ClientID(clientId), secret(config), displayName,
                scopes, groupsClaim));
    }

    /** https, or http on this machine only (a provider for development and tests): the code travels to it. */
    private static void checkIssuer(String issuer) {
        URI uri;
        try {
            uri = new URI(issuer);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(ISSUER + " is not a URL: " + issuer);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean loopback = uri.getHost() != null && isLoopback(uri.getHost());
        if (uri.getHost() == null || !(scheme.equals("https") || scheme.equals("http") && loopback)
                || uri.getQuery() != null || uri.getFragment() != null) {
            throw new IllegalArgumentException(ISSUER + " must be the provider's https URL without query or fragment "
                    + "(http only for localhost), e.g. https://id.example.com/realms/staff, not " + issuer);
        }
    }

    private static boolean isLoopback(String host) {
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        // Only literal addresses: a name is never looked up here.
        if (!host.matches("[0-9.]+|\\[[0-9a-fA-F:]+]")) {
            return false;
        }
        try {
            return InetAddress.getByName(host.replace("[", "").replace("]", "")).isLoopbackAddress();
        } catch (IOException e) {
            return false;
        }
    }

    private static Secret secret(ConfigValues config) {
        String inline = value(config, CLIENT_SECRET);
        String file = value(config, CLIENT_SECRET_FILE);
        if (inline != null && file != null) {
            throw new IllegalArgumentException("set " + CLIENT_SECRET + " or " + CLIENT_SECRET_FILE + ", not both");
        }
        if (inline != null) {
            return new Secret(inline);
        }
        if (file == null) {
            throw new IllegalArgumentException(CLIENT_SECRET + " (or " + CLIENT_SECRET_FILE + ", a file holding it) is "
                    + "required when " + ISSUER + " is set");
        }
        try {
            String read = Files.readString(Path.of(file)).strip();
            if (read.isEmpty()) {
                throw new IllegalArgumentException(CLIENT_SECRET_FILE + " names an empty file: " + file);
            }
            return new Secret(read);
        } catch (IOException | java.nio.file.InvalidPathException e) {
            throw new IllegalArgumentException(CLIENT_SECRET_FILE + " cannot be read: " + file + " ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    private static String value(ConfigValues config, String key) {
        return config.get(key).map(String::strip).filter(s -> !s.isEmpty()).orElse(null);
    }

    /** The provider's origin, the one other place the console's forms may lead to (signing out there). */
    public String issuerOrigin() {
        URI uri = URI.create(issuer.getValue());
        return uri.getScheme().toLowerCase(Locale.ROOT) + "://" + uri.getRawAuthority();
    }
}
