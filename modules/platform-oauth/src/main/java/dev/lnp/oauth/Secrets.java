package dev.lnp.oauth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The random values the server hands out (client ids, codes, tokens), their hashes (only hashes are stored), and
 * PKCE's S256 transform. Access and refresh tokens carry a prefix that is not a key's ({@code lnp_}), so the kernel
 * never looks them up as keys, and a leaked token is recognisable in a scan.
 */
final class Secrets {

    static final String ACCESS_PREFIX = "lnpat_";
    static final String REFRESH_PREFIX = "lnprt_";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Secrets() {
    }

    /** 32 random bytes, URL-safe base64 without padding, after {@code prefix}. */
    static String random(String prefix) {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
    }

    /** RFC 7636 §4.6: BASE64URL(SHA256(ASCII(code_verifier))), compared with the stored challenge. */
    static boolean verifierMatches(String verifier, String challenge) {
        if (verifier == null || !verifier.matches("[A-Za-z0-9._~-]{43,128}")) {
            return false;
        }
        String computed = Base64.getUrlEncoder().withoutPadding().encodeToString(sha256(verifier));
        return MessageDigest.isEqual(computed.getBytes(StandardCharsets.US_ASCII),
                challenge.getBytes(StandardCharsets.US_ASCII));
    }
}
