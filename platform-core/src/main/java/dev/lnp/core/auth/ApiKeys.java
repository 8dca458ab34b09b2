package dev.lnp.core.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/** Key material: generation, hashing, and the shape a key must have. */
public final class ApiKeys {

    public static final String PREFIX = "lnp_";
    public static final String LEGACY_PREFIX = "wks_";
    private static final SecureRandom RANDOM = new SecureRandom();

    private ApiKeys() {
    }

    /** {@code lnp_} followed by 32 random bytes, URL-safe base64 without padding (43 characters). */
    public static String generate() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    /** Every request hashes its key: a clone of this costs less than looking the algorithm up in the providers. */
    private static final MessageDigest SHA_256;

    static {
        try {
            SHA_256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public static byte[] hash(String key) {
        try {
            return ((MessageDigest) SHA_256.clone()).digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("SHA-256 digests of this JDK cannot be cloned", e);
        }
    }

    /** What is shown in lists: the scheme and the first characters, enough to tell keys apart. */
    public static String displayPrefix(String key) {
        return key.substring(0, Math.min(key.length(), PREFIX.length() + 6));
    }

    /** A new key, or a legacy one being imported; nothing else is even looked up. */
    public static boolean hasKeyShape(String token) {
        return (token.startsWith(PREFIX) || token.startsWith(LEGACY_PREFIX))
                && token.length() >= 20 && token.length() <= 200
                && urlSafe(token);
    }

    /** ASCII letters and digits, {@code _} and {@code -} only (a loop: this runs on every request). */
    private static boolean urlSafe(String token) {
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }
}
