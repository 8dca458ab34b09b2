package dev.lnp.web.console;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.GeneralException;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.auth.ClientAuthentication;
import com.nimbusds.oauth2.sdk.auth.ClientAuthenticationMethod;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.ClientSecretPost;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.AccessToken;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.LogoutRequest;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.claims.ClaimsSet;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.claims.UserInfo;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.openid.connect.sdk.token.OIDCTokens;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The deployment's OpenID Connect provider, spoken through the Nimbus SDK: its metadata from discovery (kept for an
 * hour, so a provider that changes its endpoints is followed), the authorization request with PKCE (S256), state and
 * nonce, the code exchange, the ID token's checks (signature against the provider's JWKS, issuer, audience, expiry,
 * nonce), the userinfo endpoint for the claims the ID token leaves out ({@link OidcUserInfo}) and the RP-initiated
 * logout URL.
 */
final class OidcProvider {

    private static final Duration METADATA_LIFETIME = Duration.ofHours(1);
    private static final int TIMEOUT_MILLIS = 5_000;
    /** The algorithms an ID token may be signed with: never "none", never a MAC with the client secret. */
    private static final Set<JWSAlgorithm> ASYMMETRIC = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384,
            JWSAlgorithm.RS512, JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256,
            JWSAlgorithm.ES384, JWSAlgorithm.ES512, JWSAlgorithm.EdDSA);

    /** The provider cannot be reached or answered nonsense: a readable page, and the person may try again. */
    static final class Unavailable extends Exception {
        Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The provider refused the sign-in, or what it sent does not pass the checks. */
    static final class Rejected extends Exception {
        Rejected(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Who the provider says signed in, from the verified ID token. */
    record Identity(String subject, String email, boolean emailVerified, List<String> groups, String idToken) {
    }

    private record Discovered(OIDCProviderMetadata metadata, IDTokenValidator validator, Instant fetchedAt) {
    }

    private final OidcSettings settings;
    private final Clock clock;
    private volatile Discovered discovered;

    OidcProvider(OidcSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    OidcSettings settings() {
        return settings;
    }

    /** The provider's metadata, fetched again once an hour; a stale copy serves while the provider is away. */
    OIDCProviderMetadata metadata() throws Unavailable {
        return discovered().metadata();
    }

    private Discovered discovered() throws Unavailable {
        Discovered current = discovered;
        if (current != null && current.fetchedAt().plus(METADATA_LIFETIME).isAfter(clock.instant())) {
            return current;
        }
        try {
            OIDCProviderMetadata metadata = OIDCProviderMetadata.resolve(settings.issuer(), TIMEOUT_MILLIS,
                    TIMEOUT_MILLIS);
            Set<JWSAlgorithm> algorithms = new HashSet<>(ASYMMETRIC);
            if (metadata.getIDTokenJWSAlgs() != null) {
                algorithms.retainAll(metadata.getIDTokenJWSAlgs());
            }
            if (algorithms.isEmpty()) {
                throw new Unavailable("the provider signs ID tokens only with " + metadata.getIDTokenJWSAlgs()
                        + ", none of which this platform accepts", null);
            }
            URL jwks = metadata.getJWKSetURI().toURL();
            JWKSource<SecurityContext> keys = JWKSourceBuilder.<SecurityContext>create(jwks,
                    new DefaultResourceRetriever(TIMEOUT_MILLIS, TIMEOUT_MILLIS, 512 * 1024)).build();
            var validator = new IDTokenValidator(settings.issuer(), settings.clientId(),
                    new JWSVerificationKeySelector<>(algorithms, keys), null);
            Discovered fresh = new Discovered(metadata, validator, clock.instant());
            discovered = fresh;
            return fresh;
        } catch (GeneralException | IOException | IllegalArgumentException | NullPointerException e) {
            if (current != null) {
                return current;
            }
            throw new Unavailable("its discovery document " + settings.issuer() + "/.well-known/openid-configuration "
                    + "could not be read (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")", e);
        }
    }

    /** Where the browser goes to sign in: the provider's authorization endpoint with this sign-in's secrets. */
    URI authorizationUri(State state, Nonce nonce, CodeVerifier verifier, URI callback) throws Unavailable {
        var metadata = metadata();
        return new AuthenticationRequest.Builder(ResponseType.CODE, settings.scopes(), settings.clientId(), callback)
                .endpointURI(metadata.getAuthorizationEndpointURI())
                .state(state)
                .nonce(nonce)
                .codeChallenge(verifier, CodeChallengeMethod.S256)
                .build()
                .toURI();
    }

    /** Exchanges the code (with the PKCE verifier) and checks the ID token it brings, nonce included. */
    Identity redeem(AuthorizationCode code, CodeVerifier verifier, Nonce nonce, URI callback)
            throws Unavailable, Rejected {
        var found = discovered();
        var metadata = found.metadata();
        HTTPRequest request = new TokenRequest.Builder(metadata.getTokenEndpointURI(), clientAuthentication(metadata),
                new AuthorizationCodeGrant(code, callback, verifier)).build().toHTTPRequest();
        request.setConnectTimeout(TIMEOUT_MILLIS);
        request.setReadTimeout(TIMEOUT_MILLIS);
        com.nimbusds.oauth2.sdk.TokenResponse response;
        try {
            response = OIDCTokenResponseParser.parse(request.send());
        } catch (IOException e) {
            throw new Unavailable("its token endpoint could not be reached (" + e.getMessage() + ")", e);
        } catch (ParseException e) {
            throw new Rejected("its token endpoint's answer could not be read (" + e.getMessage() + ")", e);
        }
        if (!response.indicatesSuccess()) {
            ErrorObject error = response.toErrorResponse().getErrorObject();
            throw new Rejected("it refused the sign-in code (" + describe(error) + ")", null);
        }
        OIDCTokens tokens = ((OIDCTokenResponse) response.toSuccessResponse()).getOIDCTokens();
        JWT idToken = tokens.getIDToken();
        if (idToken == null) {
            throw new Rejected("it sent no ID token", null);
        }
        IDTokenClaimsSet claims;
        try {
            claims = found.validator().validate(idToken, nonce);
        } catch (BadJOSEException | JOSEException e) {
            throw new Rejected("its ID token did not pass the checks (" + e.getMessage() + ")", e);
        }
        return identity(claims, idToken.serialize(), tokens.getAccessToken(), metadata.getUserInfoEndpointURI());
    }

    /**
     * Who signed in: the ID token's claims, and for the e-mail address or the groups it leaves out, the userinfo
     * endpoint's (when the provider has one). The address and whether it is verified always come from the same place.
     */
    private Identity identity(IDTokenClaimsSet claims, String idToken, AccessToken accessToken, URI userInfoEndpoint)
            throws Unavailable, Rejected {
        ClaimsSet fromEmail = claims;
        Optional<List<String>> groups = groups(claims);
        if ((claims.getStringClaim("email") == null || groups.isEmpty()) && userInfoEndpoint != null
                && accessToken != null) {
            UserInfo info = OidcUserInfo.fetch(userInfoEndpoint, accessToken, claims.getSubject(), TIMEOUT_MILLIS);
            if (claims.getStringClaim("email") == null) {
                fromEmail = info;
            }
            if (groups.isEmpty()) {
                groups = groups(info);
            }
        }
        // Microsoft Entra ID sends no email_verified; its optional claim xms_edov says the same for the domain's owner.
        boolean verified = Boolean.TRUE.equals(fromEmail.getBooleanClaim("email_verified"))
                || Boolean.TRUE.equals(fromEmail.getBooleanClaim("xms_edov"));
        return new Identity(claims.getSubject().getValue(), fromEmail.getStringClaim("email"), verified,
                groups.orElse(List.of()), idToken);
    }

    /** The groups claim, empty when absent: a list of names as a rule; a provider with one group may send a string. */
    private Optional<List<String>> groups(ClaimsSet claims) {
        return Optional.ofNullable(claims.getStringListClaim(settings.groupsClaim()))
                .or(() -> Optional.ofNullable(claims.getStringClaim(settings.groupsClaim())).map(List::of));
    }

    /** Basic authentication unless the provider lists only the form post of the secret. */
    private ClientAuthentication clientAuthentication(OIDCProviderMetadata metadata) {
        var methods = metadata.getTokenEndpointAuthMethods();
        if (methods != null && !methods.contains(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                && methods.contains(ClientAuthenticationMethod.CLIENT_SECRET_POST)) {
            return new ClientSecretPost(settings.clientId(), settings.clientSecret());
        }
        return new ClientSecretBasic(settings.clientId(), settings.clientSecret());
    }

    /**
     * Where signing out continues at the provider (RP-initiated logout, with the ID token as the hint and the sign-in
     * page to come back to); empty when its metadata names no {@code end_session_endpoint} or it cannot be read.
     */
    Optional<URI> logoutUri(String idToken, URI afterLogout) {
        try {
            URI endpoint = metadata().getEndSessionEndpointURI();
            if (endpoint == null) {
                return Optional.empty();
            }
            return Optional.of(new LogoutRequest(endpoint, JWTParser.parse(idToken), afterLogout, null).toURI());
        } catch (Unavailable | java.text.ParseException e) {
            return Optional.empty();
        }
    }

    private static String describe(ErrorObject error) {
        if (error == null) {
            return "no reason given";
        }
        return error.getDescription() == null ? String.valueOf(error.getCode())
                : error.getCode() + ": " + error.getDescription();
    }
}
