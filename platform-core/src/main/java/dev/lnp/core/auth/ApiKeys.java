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

    public static byte[] hash(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
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
                && token.chars().allMatch(c -> Character.isLetterOrDigit(c) && c < 128 || c == '_' || c == '-');
    }
}
