package dev.lnp.oauth;

import dev.lnp.api.internal.people.Html;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The parameters of {@code /oauth/authorize}, checked in the order OAuth 2.1 §4.1.2.1 asks: an unknown client or a
 * redirect URI the client did not register is told to the person on a page (never redirected: the URI may be an
 * attacker's); every other mistake goes back to the client at its redirect URI, with {@code state}. Only the code
 * flow with PKCE S256 is served: a missing challenge, or the {@code plain} method (also what no method means, RFC
 * 7636 §4.3), is {@code invalid_request}. A {@code resource} (RFC 8707) must be this deployment's MCP endpoint.
 */
sealed interface AuthorizationRequest {

    /** Told to the person: the client cannot be trusted with a redirect. */
    record Unsafe(String heading, String text) implements AuthorizationRequest {
    }

    /** Sent back to the client's redirect URI. */
    record Refused(String redirectUri, String error, String description, String state, String issuer)
            implements AuthorizationRequest {

        String location() {
            return RedirectLocation.of(redirectUri, "error", error, "error_description", description, "state", state,
                    "iss", issuer);
        }
    }

    /** A request to show the consent page for. {@code scopes} are those asked for (every scope when none). */
    record Valid(Clients.Client client, String redirectUri, String codeChallenge, String state, List<String> scopes,
            boolean scopesAsked) implements AuthorizationRequest {

        /** The hidden fields that carry the request through the consent form. */
        String hiddenFields() {
            StringBuilder html = new StringBuilder();
            hidden(html, "response_type", "code");
            hidden(html, "client_id", client.clientId());
            hidden(html, "redirect_uri", redirectUri);
            hidden(html, "code_challenge", codeChallenge);
            hidden(html, "code_challenge_method", "S256");
            if (state != null) {
                hidden(html, "state", state);
            }
            if (scopesAsked) {
                hidden(html, "scope", String.join(" ", scopes));
            }
            return html.toString();
        }

        private static void hidden(StringBuilder html, String name, String value) {
            html.append("<input type=\"hidden\" name=\"").append(name).append("\" value=\"")
                    .append(Html.escape(value)).append("\">");
        }
    }

    /**
     * {@code clients} finds a client by its id: a registered one, or the one a metadata document URL describes (or
     * why that document cannot be used); empty for an unknown id.
     */
    static AuthorizationRequest read(Function<String, Optional<String>> param,
            Function<String, Optional<ClientMetadataDocuments.Outcome>> clients, OAuthSettings settings,
            Set<String> knownScopes) {
        Optional<ClientMetadataDocuments.Outcome> found = param.apply("client_id").flatMap(clients);
        if (found.isPresent() && found.get() instanceof ClientMetadataDocuments.Outcome.Unusable unusable) {
            return new Unsafe("Application not recognised", "The application that sent you here names itself by "
                    + "a client metadata document this platform cannot use: " + unusable.reason() + " Nothing was "
                    + "shared. Go back to the application and connect again; if this keeps happening, the "
                    + "application is misconfigured.");
        }
        Optional<Clients.Client> client = found.map(f -> ((ClientMetadataDocuments.Outcome.Found) f).client());
        if (client.isEmpty()) {
            return new Unsafe("Unknown application", "The application that sent you here is not registered with "
                    + "this platform (its client_id is missing or unknown). Nothing was shared. Go back to the "
                    + "application and connect again.");
        }
        Optional<String> redirect = client.get().redirectUri(param.apply("redirect_uri").orElse(null));
        if (redirect.isEmpty()) {
            return new Unsafe("Wrong return address", "The application asked to send you back to an address it did "
                    + "not register (redirect_uri). Nothing was shared. Go back to the application and connect "
                    + "again; if this keeps happening, the application is misconfigured.");
        }
        String state = param.apply("state").orElse(null);
        String to = redirect.get();
        String issuer = settings.issuer();
        if (!param.apply("response_type").orElse("").equals("code")) {
            return new Refused(to, "unsupported_response_type", "Only response_type=code is supported.", state,
                    issuer);
        }
        Optional<String> challenge = param.apply("code_challenge");
        if (challenge.isEmpty()) {
            return new Refused(to, "invalid_request", "PKCE is required: send code_challenge with "
                    + "code_challenge_method=S256.", state, issuer);
        }
        if (!param.apply("code_challenge_method").orElse("plain").equals("S256")) {
            return new Refused(to, "invalid_request", "Only code_challenge_method=S256 is supported.", state, issuer);
        }
        if (!challenge.get().matches("[A-Za-z0-9_-]{43}")) {
            return new Refused(to, "invalid_request", "code_challenge must be an S256 challenge (43 base64url "
                    + "characters).", state, issuer);
        }
        Optional<String> resource = param.apply("resource");
        if (resource.isPresent() && !settings.isResource(resource.get())) {
            return new Refused(to, "invalid_target", "This server issues tokens for " + settings.resource()
                    + " only.", state, issuer);
        }
        Optional<String> scope = param.apply("scope");
        List<String> scopes = new ArrayList<>();
        if (scope.isPresent()) {
            for (String s : scope.get().trim().split(" +")) {
                if (!knownScopes.contains(s)) {
                    return new Refused(to, "invalid_scope", "Unknown scope " + s + ".", state, issuer);
                }
                if (!scopes.contains(s)) {
                    scopes.add(s);
                }
            }
        } else {
            scopes.addAll(new java.util.TreeSet<>(knownScopes));
        }
        return new Valid(client.get(), to, challenge.get(), state, List.copyOf(scopes), scope.isPresent());
    }
}
