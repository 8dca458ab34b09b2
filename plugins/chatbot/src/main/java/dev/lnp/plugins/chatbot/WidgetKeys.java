package dev.lnp.plugins.chatbot;

import dev.lnp.api.internal.keys.PublicKeys;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/** Widget keys: {@code lnp_cxo_} and 32 random bytes; only their SHA-256 is stored. */
final class WidgetKeys {

    private static final SecureRandom RANDOM = new SecureRandom();

    private WidgetKeys() {
    }

    static String generate() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return PublicKeys.WIDGET_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    static byte[] hash(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String displayPrefix(String key) {
        return key.substring(0, Math.min(key.length(), PublicKeys.WIDGET_PREFIX.length() + 6));
    }

    /** Looks like a widget key (shape only: it still has to be found). */
    static boolean hasShape(String key) {
        return key.startsWith(PublicKeys.WIDGET_PREFIX) && key.length() <= 200
                && key.chars().allMatch(c -> Character.isLetterOrDigit(c) && c < 128 || c == '_' || c == '-');
    }

    /** A management key ({@code lnp_…} that is not a widget key, or a legacy {@code wks_…} key). */
    static boolean isManagementKey(String key) {
        return !PublicKeys.isWidgetKey(key) && (key.startsWith("lnp_") || key.startsWith("wks_"));
    }
}
