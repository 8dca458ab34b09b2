package dev.lnp.oauth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.RawRequest;
import dev.lnp.api.http.RawResponse;
import java.time.Clock;
import java.util.Optional;

/**
 * {@code POST /oauth/token} (OAuth 2.1 §3.2) for public clients: the authorization code with its PKCE verifier, and
 * refresh tokens, rotated on every use. A code is used once: its second use revokes the grant and every token it
 * gave (§4.1.3). A refresh token is used once too: the second use of one already rotated revokes the whole grant
 * (§4.3.1), since either the client or an attacker holds a stolen copy. And {@code POST /oauth/revoke} (RFC 7009).
 */
final class TokenEndpoint {

    private final GrantService service;
    private final Clients clients;
    private final OAuthSettings settings;
    private final Clock clock;

    TokenEndpoint(GrantService service, Clients clients, OAuthSettings settings, Clock clock) {
        this.service = service;
        this.clients = clients;
        this.settings = settings;
        this.clock = clock;
    }

    RawResponse token(RawRequest request) {
        Optional<RawResponse> refused = refusedForm(request);
        if (refused.isPresent()) {
            return refused.get();
        }
        FormFields form = FormFields.parse(request.body());
        if (form.repeated().isPresent()) {
            return OAuthAnswers.error(400, "invalid_request", "The parameter " + form.repeated().get()
                    + " was sent more than once.");
        }
        Optional<String> clientId = form.get("client_id");
        if (clientId.isEmpty() || clients.find(clientId.get()).isEmpty()) {
            return OAuthAnswers.error(401, "invalid_client", "client_id is missing or not registered; register "
                    + "at " + settings.issuer() + OAuthSettings.REGISTER + ".");
        }
        Optional<String> resource = form.get("resource");
        if (resource.isPresent() && !settings.isResource(resource.get())) {
            return OAuthAnswers.error(400, "invalid_target", "This server issues tokens for " + settings.resource()
                    + " only.");
        }
        return switch (form.get("grant_type").orElse("")) {
            case "authorization_code" -> code(form, clientId.get());
            case "refresh_token" -> refresh(form, clientId.get());
            case "" -> OAuthAnswers.error(400, "invalid_request", "grant_type is missing.");
            default -> OAuthAnswers.error(400, "unsupported_grant_type",
                    "grant_type must be authorization_code or refresh_token.");
        };
    }

    private RawResponse code(FormFields form, String clientId) {
        Optional<String> code = form.get("code");
        if (code.isEmpty()) {
            return OAuthAnswers.error(400, "invalid_request", "code is missing.");
        }
        if (form.get("code_verifier").isEmpty()) {
            return OAuthAnswers.error(400, "invalid_request", "code_verifier is missing (PKCE is required).");
        }
        var claim = service.grants().claimCode(code.get(), clock.instant());
        if (claim.isEmpty()) {
            return invalidGrant("The code is not valid.");
        }
        if (claim.get().reused()) {
            service.revoke(claim.get().grantId(), "code_reused");
            return invalidGrant("The code was used already; the grant it came from is revoked.");
        }
        if (claim.get().expired()) {
            return invalidGrant("The code has expired; start the authorization again.");
        }
        Grants.Grant grant = service.grants().find(claim.get().grantId()).orElse(null);
        if (grant == null || grant.revokedAt() != null || !grant.clientId().equals(clientId)) {
            return invalidGrant("The code was not issued to this client.");
        }
        if (!form.get("redirect_uri").orElse("").equals(claim.get().redirectUri())) {
            return invalidGrant("redirect_uri must be the one the authorization request used.");
        }
        if (!Secrets.verifierMatches(form.get("code_verifier").get(), claim.get().codeChallenge())) {
            return invalidGrant("The code_verifier does not match the code_challenge.");
        }
        return service.activate(grant).map(this::answer)
                .orElseGet(() -> invalidGrant("The grant was revoked."));
    }

    private RawResponse refresh(FormFields form, String clientId) {
        Optional<String> token = form.get("refresh_token");
        if (token.isEmpty()) {
            return OAuthAnswers.error(400, "invalid_request", "refresh_token is missing.");
        }
        var claim = service.grants().refreshToken(token.get(), clock.instant());
        if (claim.isEmpty()) {
            return invalidGrant("The refresh token is not valid.");
        }
        Grants.Grant grant = service.grants().find(claim.get().grantId()).orElse(null);
        // Another client's mistake must not spend the token (nor, later, revoke the grant of its rightful holder).
        if (grant == null || !grant.clientId().equals(clientId)) {
            return invalidGrant("The refresh token was not issued to this client.");
        }
        if (claim.get().reused()) {
            service.revoke(grant.id(), "refresh_token_reused");
            return invalidGrant("The refresh token was used already; the grant is revoked. Authorize again.");
        }
        if (claim.get().expired() || grant.revokedAt() != null) {
            return invalidGrant("The refresh token has expired or its grant was revoked. Authorize again.");
        }
        // RFC 6749 §6: a refresh may ask for a subset of the grant's scopes (the access token gets only those; the
        // endpoint's own scope always, or the token could not reach it); anything more is invalid_scope.
        java.util.List<String> scopes = grant.scopes();
        if (form.get("scope").isPresent()) {
            java.util.List<String> asked = java.util.List.of(form.get("scope").get().trim().split(" +"));
            if (!grant.scopes().containsAll(asked)) {
                return OAuthAnswers.error(400, "invalid_scope", "A refresh cannot add scopes to the grant.");
            }
            scopes = grant.scopes().stream()
                    .filter(s -> asked.contains(s) || s.equals(AuthorizeEndpoint.REQUIRED_SCOPE)).toList();
        }
        if (!service.grants().spendRefreshToken(token.get(), clock.instant())) {
            service.revoke(grant.id(), "refresh_token_reused");
            return invalidGrant("The refresh token was used already; the grant is revoked. Authorize again.");
        }
        return answer(service.tokens(grant, scopes));
    }

    RawResponse revoke(RawRequest request) {
        Optional<RawResponse> refused = refusedForm(request);
        if (refused.isPresent()) {
            return refused.get();
        }
        FormFields form = FormFields.parse(request.body());
        Optional<String> token = form.get("token");
        if (token.isEmpty()) {
            return OAuthAnswers.error(400, "invalid_request", "token is missing.");
        }
        // RFC 7009 §2.2: an unknown token is answered 200 as well; a refresh token takes its grant with it.
        if (token.get().startsWith(Secrets.REFRESH_PREFIX)) {
            service.grants().grantOfToken(token.get()).ifPresent(grant -> service.revoke(grant, "revoked_by_client"));
        } else {
            service.grants().deleteAccessToken(token.get());
        }
        return OAuthAnswers.json(200, Json.object());
    }

    private RawResponse answer(GrantService.Issued issued) {
        ObjectNode body = Json.object().put("access_token", issued.accessToken()).put("token_type", "Bearer")
                .put("expires_in", issued.expiresInSeconds()).put("refresh_token", issued.refreshToken())
                .put("scope", String.join(" ", issued.scopes()));
        return OAuthAnswers.json(200, body);
    }

    private static RawResponse invalidGrant(String description) {
        return OAuthAnswers.error(400, "invalid_grant", description);
    }

    /** The endpoints take a URL-encoded form, never parameters in the URL (OAuth 2.1 §3.2). */
    private static Optional<RawResponse> refusedForm(RawRequest request) {
        String type = request.header("Content-Type").orElse("");
        if (!type.toLowerCase(java.util.Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
            return Optional.of(OAuthAnswers.error(400, "invalid_request",
                    "Send the parameters as application/x-www-form-urlencoded."));
        }
        return Optional.empty();
    }
}
