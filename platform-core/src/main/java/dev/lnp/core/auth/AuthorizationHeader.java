package dev.lnp.core.auth;

import dev.lnp.api.http.ApiProblem;
import java.util.List;
import java.util.Locale;

/**
 * Parses {@code Authorization: Bearer <key>}. The scheme is case-insensitive (RFC 9110 §11.1), separated by
 * spaces from exactly one token; a second "Bearer", quotes, another scheme or several headers are refused.
 */
public final class AuthorizationHeader {

    private AuthorizationHeader() {
    }

    public static String bearerKey(List<String> headerValues) {
        String token = bearerValue(headerValues);
        if (!ApiKeys.hasKeyShape(token)) {
            throw Unauthorized.invalid();
        }
        return token;
    }

    /** The bearer value, of any shape: a key, or a token that stands for one (a widget key is refused). */
    public static String bearerValue(List<String> headerValues) {
        if (headerValues.isEmpty()) {
            throw Unauthorized.missing();
        }
        if (headerValues.size() > 1) {
            throw Unauthorized.malformed("Send exactly one Authorization header.");
        }
        String value = headerValues.get(0).strip();
        int space = value.indexOf(' ');
        if (space < 0) {
            throw Unauthorized.malformed("The Authorization header must be 'Bearer <key>'.");
        }
        String scheme = value.substring(0, space);
        if (!scheme.toLowerCase(Locale.ROOT).equals("bearer")) {
            throw Unauthorized.malformed("Only the Bearer scheme is accepted, not " + scheme + ".");
        }
        String token = value.substring(space).strip();
        if (token.isEmpty()) {
            throw Unauthorized.malformed("The Authorization header has no key after 'Bearer'.");
        }
        if (token.contains(" ") || token.contains("\t")) {
            throw Unauthorized.malformed("The Authorization header must carry exactly one 'Bearer' and one key.");
        }
        if (token.startsWith("\"") || token.startsWith("'") || token.endsWith("\"") || token.endsWith("'")) {
            throw Unauthorized.malformed("The key must not be quoted.");
        }
        if (dev.lnp.api.internal.keys.PublicKeys.isWidgetKey(token)) {
            throw Unauthorized.widgetKey();
        }
        return token;
    }

    /** The 401 answers; each carries a {@code WWW-Authenticate} challenge (RFC 6750). */
    public static final class Unauthorized {
        private Unauthorized() {
        }

        public static ApiProblem missing() {
            return problem("missing_credentials", "This route needs 'Authorization: Bearer <key>'.",
                    "Bearer realm=\"lnp\"");
        }

        public static ApiProblem malformed(String detail) {
            return problem("malformed_authorization", detail,
                    "Bearer realm=\"lnp\", error=\"invalid_request\"");
        }

        public static ApiProblem invalid() {
            return token("invalid_key", "The key is not valid.");
        }

        /** A chat widget's public key ({@code lnp_cxo_…}) on a management surface. */
        public static ApiProblem widgetKey() {
            return token("widget_key_not_allowed", "This is a chat widget key: it works only on the chat endpoints "
                    + "under /api/cxo for its widget. The management API and MCP take a connection key.");
        }

        public static ApiProblem expired() {
            return token("expired_key", "The key has expired.");
        }

        public static ApiProblem revoked() {
            return token("revoked_key", "The key has been revoked.");
        }

        public static ApiProblem legacyRetired() {
            return token("legacy_key_retired",
                    "Legacy wks_ keys are no longer accepted; create a new lnp_ key for this connection.");
        }

        private static ApiProblem token(String code, String detail) {
            return problem(code, detail, "Bearer realm=\"lnp\", error=\"invalid_token\", error_description=\""
                    + detail.replace("\"", "'") + "\"");
        }

        private static ApiProblem problem(String code, String detail, String challenge) {
            return new ApiProblem(401, code, "Unauthorized", detail, List.of(),
                    java.util.Map.of("WWW-Authenticate", challenge));
        }
    }
}
