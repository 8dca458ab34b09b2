package dev.lnp.tokens;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.lnp.api.internal.tokens.SessionTokens;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.Jdbi;

/**
 * {@link SessionTokens} with nimbus-jose-jwt: ES256 keys in {@code lnp_core.token_signing_keys}. The newest key
 * still in its signing period signs; when there is none, one node creates the next (an advisory lock makes
 * concurrent nodes agree on one). Keys are cached by kid on each node; an unknown kid is looked up once.
 */
public final class SigningKeyRing implements SessionTokens {

    private static final Set<String> REGISTERED = Set.of("iss", "sub", "aud", "exp", "nbf", "iat", "jti");
    private static final long LOCK = 0x6c6e70746f6b656eL; // "lnptoken"

    private final Jdbi jdbi;
    private final Clock clock;
    private final String issuer;
    private final Duration rotation;
    private final Map<String, ECKey> verifiers = new ConcurrentHashMap<>();
    private volatile Signing current;

    private record Signing(ECKey key, Instant signUntil) {
    }

    public SigningKeyRing(Jdbi jdbi, Clock clock, String issuer, Duration rotation) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.issuer = issuer;
        this.rotation = rotation;
    }

    @Override
    public Issued issue(String audience, Map<String, String> claims, Duration lifetime) {
        if (lifetime.isNegative() || lifetime.isZero() || lifetime.compareTo(MAX_LIFETIME) > 0) {
            throw new IllegalArgumentException("a session token lives more than 0 and at most 15 minutes, not "
                    + lifetime);
        }
        Instant now = clock.instant();
        ECKey key = signingKey(now);
        Instant expires = now.plus(lifetime);
        String jti = UUID.randomUUID().toString();
        var builder = new JWTClaimsSet.Builder().issuer(issuer).audience(audience).issueTime(Date.from(now))
                .expirationTime(Date.from(expires)).jwtID(jti);
        claims.forEach((name, value) -> {
            if (REGISTERED.contains(name)) {
                throw new IllegalArgumentException("claim " + name + " is set by the platform");
            }
            builder.claim(name, value);
        });
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.getKeyID())
                .type(JOSEObjectType.JWT).build(), builder.build());
        try {
            jwt.sign(new ECDSASigner(key));
        } catch (JOSEException e) {
            throw new IllegalStateException("signing a session token failed", e);
        }
        return new Issued(jwt.serialize(), Instant.ofEpochSecond(expires.getEpochSecond()), jti);
    }

    @Override
    public Map<String, String> verify(String audience, String token) throws Rejected {
        if (token == null || token.isBlank() || token.length() > 4096) {
            throw new Rejected("no token", false);
        }
        SignedJWT jwt;
        try {
            jwt = SignedJWT.parse(token);
        } catch (ParseException | RuntimeException e) {
            // Also "alg": "none": PlainJWT is not a SignedJWT and fails to parse as one.
            throw new Rejected("the token is not a signed JWT", false);
        }
        if (!JWSAlgorithm.ES256.equals(jwt.getHeader().getAlgorithm())) {
            throw new Rejected("the token's algorithm is not accepted", false);
        }
        String kid = jwt.getHeader().getKeyID();
        ECKey key = kid == null ? null : verifierFor(kid);
        if (key == null) {
            throw new Rejected("the token's key is unknown", false);
        }
        JWTClaimsSet claims;
        try {
            if (!jwt.verify(new ECDSAVerifier(key.toECPublicKey()))) {
                throw new Rejected("the token's signature does not match", false);
            }
            claims = jwt.getJWTClaimsSet();
        } catch (JOSEException | ParseException e) {
            throw new Rejected("the token's signature does not match", false);
        }
        if (!issuer.equals(claims.getIssuer()) || claims.getAudience() == null
                || !claims.getAudience().contains(audience)) {
            throw new Rejected("the token is not for this service", false);
        }
        Date exp = claims.getExpirationTime();
        if (exp == null || claims.getIssueTime() == null || claims.getJWTID() == null) {
            throw new Rejected("the token lacks exp, iat or jti", false);
        }
        if (!clock.instant().isBefore(exp.toInstant())) {
            throw new Rejected("the token has expired", true);
        }
        Map<String, String> own = new LinkedHashMap<>();
        claims.getClaims().forEach((name, value) -> {
            if (!REGISTERED.contains(name) && value instanceof String s) {
                own.put(name, s);
            }
        });
        own.put("jti", claims.getJWTID());
        return own;
    }

    private ECKey signingKey(Instant now) {
        Signing signing = current;
        if (signing != null && now.isBefore(signing.signUntil())) {
            return signing.key();
        }
        synchronized (this) {
            signing = current;
            if (signing != null && now.isBefore(signing.signUntil())) {
                return signing.key();
            }
            current = signing = jdbi.inTransaction(h -> {
                h.execute("SELECT pg_advisory_xact_lock(?)", LOCK);
                var row = h.createQuery("""
                                SELECT jwk, sign_until FROM lnp_core.token_signing_keys
                                 WHERE sign_until > :now ORDER BY sign_until DESC LIMIT 1""")
                        .bind("now", now).map((rs, ctx) -> new Object[] {rs.getString(1),
                                rs.getTimestamp(2).toInstant()}).findOne();
                if (row.isPresent()) {
                    return new Signing(parse((String) row.get()[0]), (Instant) row.get()[1]);
                }
                ECKey fresh;
                try {
                    fresh = new ECKeyGenerator(Curve.P_256).keyID(UUID.randomUUID().toString()).generate();
                } catch (JOSEException e) {
                    throw new IllegalStateException("generating a token signing key failed", e);
                }
                Instant signUntil = now.plus(rotation);
                h.createUpdate("""
                                INSERT INTO lnp_core.token_signing_keys (kid, jwk, created_at, sign_until, verify_until)
                                VALUES (:kid, :jwk, :now, :sign, :verify)""")
                        .bind("kid", fresh.getKeyID()).bind("jwk", fresh.toJSONString()).bind("now", now)
                        .bind("sign", signUntil).bind("verify", signUntil.plus(MAX_LIFETIME)).execute();
                // Keys nobody can use any more.
                h.createUpdate("DELETE FROM lnp_core.token_signing_keys WHERE verify_until < :cutoff")
                        .bind("cutoff", now.minus(Duration.ofDays(1))).execute();
                return new Signing(fresh, signUntil);
            });
            verifiers.put(signing.key().getKeyID(), signing.key());
            return signing.key();
        }
    }

    private ECKey verifierFor(String kid) {
        ECKey cached = verifiers.get(kid);
        if (cached == null) {
            cached = jdbi.withHandle(h -> h.createQuery("""
                            SELECT jwk FROM lnp_core.token_signing_keys WHERE kid = :kid AND verify_until > :now""")
                    .bind("kid", kid).bind("now", clock.instant()).mapTo(String.class).findOne()
                    .map(SigningKeyRing::parse).orElse(null));
            if (cached != null) {
                verifiers.put(kid, cached);
            }
        }
        return cached;
    }

    private static ECKey parse(String jwk) {
        try {
            return ECKey.parse(jwk);
        } catch (ParseException e) {
            throw new IllegalStateException("a stored token signing key is not a JWK", e);
        }
    }
}
