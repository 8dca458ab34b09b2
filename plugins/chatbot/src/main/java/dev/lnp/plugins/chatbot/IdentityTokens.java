package dev.lnp.plugins.chatbot;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import dev.lnp.api.http.ApiProblem;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;

/**
 * Known visitors (docs/chatbot.md, "Known visitors"): a site that has signed its visitor in names them in a
 * short-lived JWT signed with the widget's identity secret, HS256 only, {@code aud} the widget's id, {@code sub} the
 * site's user id, {@code email}, optional {@code name}, {@code iat} and {@code exp} at most {@link #MAX_LIFETIME}
 * apart. Anything else is refused with its own problem code; a refused token is never taken as "anonymous".
 */
final class IdentityTokens {

    /** The longest lifetime ({@code exp - iat}) a token may have. */
    static final Duration MAX_LIFETIME = Duration.ofHours(1);
    /** Clocks of the site and the platform may differ by this much. */
    static final Duration SKEW = Duration.ofSeconds(60);
    private static final SecureRandom RANDOM = new SecureRandom();

    private IdentityTokens() {
    }

    /** The visitor a valid token names. */
    record Verified(String userId, String email, String name) {
    }

    /** A new secret: 32 random bytes, base64url; the HMAC key is the UTF-8 bytes of the whole string. */
    static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return "whsec_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static Verified verify(Widget widget, String token, Instant now) {
        JWT jwt;
        try {
            jwt = JWTParser.parse(token.strip());
        } catch (ParseException e) {
            throw refused(401, "identity_token_invalid", "The identity token is not a JWT (three base64url parts "
                    + "separated by dots).");
        }
        if (!(jwt instanceof SignedJWT signed) || !JWSAlgorithm.HS256.equals(signed.getHeader().getAlgorithm())) {
            throw refused(401, "identity_token_algorithm", "The identity token must be signed with HS256 and the "
                    + "widget's identity secret; its alg is " + jwt.getHeader().getAlgorithm() + ".");
        }
        JWTClaimsSet claims;
        try {
            claims = signed.getJWTClaimsSet();
        } catch (ParseException e) {
            throw refused(401, "identity_token_invalid", "The identity token's claims are not a JSON object.");
        }
        // The audience is read before the signature only to say which mistake it is: either way it is refused.
        List<String> audience = claims.getAudience();
        if (audience == null || audience.isEmpty()) {
            throw missing("aud", "the widget's id, " + widget.id());
        }
        if (!audience.contains(widget.id().toString())) {
            throw refused(403, "identity_token_wrong_widget", "The identity token is for another chat widget (aud "
                    + String.join(", ", audience) + "); this widget's id is " + widget.id() + ".");
        }
        String secret = widget.identitySecret().orElseThrow(() -> refused(401, "identity_token_invalid",
                "This widget has no identity secret yet: an admin finds it on the widget's page or at "
                        + "GET /api/v1/chatbot/widgets/" + widget.id() + "/identity-secret."));
        try {
            if (!signed.verify(new MACVerifier(secret.getBytes(StandardCharsets.UTF_8)))) {
                throw refused(401, "identity_token_invalid", "The identity token's signature does not match the "
                        + "widget's identity secret (forged, or signed with a secret that was rotated since).");
            }
        } catch (JOSEException e) {
            throw refused(401, "identity_token_invalid", "The identity token's signature could not be checked.");
        }
        Date exp = claims.getExpirationTime();
        Date iat = claims.getIssueTime();
        if (exp == null) throw missing("exp", "when the token expires, at most "
                + MAX_LIFETIME.toMinutes() + " minutes after iat");
        if (iat == null) throw missing("iat", "when the token was issued");
        String sub = text(claims, "sub");
        String email = text(claims, "email");
        if (sub == null) throw missing("sub", "the site's id of the signed-in visitor");
        if (email == null) throw missing("email", "the visitor's e-mail address");
        if (exp.toInstant().isBefore(now.minus(SKEW))) {
            throw refused(401, "identity_token_expired", "The identity token expired at " + exp.toInstant()
                    + ": the site must give the page a new one.");
        }
        if (iat.toInstant().isAfter(now.plus(SKEW))) {
            throw refused(401, "identity_token_invalid", "The identity token is issued in the future ("
                    + iat.toInstant() + "); check the site's clock.");
        }
        Duration lifetime = Duration.between(iat.toInstant(), exp.toInstant());
        if (lifetime.compareTo(MAX_LIFETIME) > 0 || exp.toInstant().isAfter(now.plus(MAX_LIFETIME).plus(SKEW))) {
            throw refused(401, "identity_token_lifetime", "An identity token may live at most "
                    + MAX_LIFETIME.toMinutes() + " minutes (exp - iat); this one lives " + lifetime.toMinutes()
                    + " minutes.");
        }
        if (sub.length() > 200) throw invalidClaim("sub", "at most 200 characters");
        if (email.length() > 320 || !VisitorEmail.plausible(email)) {
            throw invalidClaim("email", "an e-mail address such as name@example.com");
        }
        String name = text(claims, "name");
        if (name != null && name.length() > 240) name = name.substring(0, 240);
        return new Verified(sub, email, name);
    }

    private static String text(JWTClaimsSet claims, String name) {
        Object value = claims.getClaim(name);
        if (value == null) return null;
        if (!(value instanceof String s)) throw invalidClaim(name, "a string");
        return s.isBlank() ? null : s.strip();
    }

    private static ApiProblem missing(String claim, String what) {
        return refused(401, "identity_token_claim_missing", "The identity token has no " + claim + " claim ("
                + what + ").");
    }

    private static ApiProblem invalidClaim(String claim, String what) {
        return refused(401, "identity_token_claim_invalid", "The identity token's " + claim + " claim must be "
                + what + ".");
    }

    private static ApiProblem refused(int status, String code, String detail) {
        return new ApiProblem(status, code, status == 401 ? "Unauthorized" : "Forbidden", detail);
    }
}
