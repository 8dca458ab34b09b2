package dev.lnp.oauth;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SecretsTest {

    /** RFC 7636 Appendix B's example. */
    @Test
    void theS256ChallengeOfRfc7636MatchesItsVerifierOnly() {
        String verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        String challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assertTrue(Secrets.verifierMatches(verifier, challenge));
        assertFalse(Secrets.verifierMatches(verifier.replace('d', 'e'), challenge));
        assertFalse(Secrets.verifierMatches("short", challenge), "a verifier has 43 to 128 characters");
        assertFalse(Secrets.verifierMatches(null, challenge));
        assertFalse(Secrets.verifierMatches(challenge, challenge), "plain is not accepted");
    }

    @Test
    void tokensAreNeverShapedLikeKeys() {
        String access = Secrets.random(Secrets.ACCESS_PREFIX);
        assertTrue(access.startsWith("lnpat_") && access.length() == 6 + 43, access);
        assertFalse(access.startsWith("lnp_"));
    }
}
