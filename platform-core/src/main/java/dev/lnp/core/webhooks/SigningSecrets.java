package dev.lnp.core.webhooks;

import java.security.SecureRandom;
import java.util.Base64;

/** New subscription secrets: 32 random bytes, base64url, with a {@code whsec_} prefix that makes them recognisable. */
final class SigningSecrets {

    static final int RANDOM_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private SigningSecrets() {
    }

    /** The HMAC key is the UTF-8 bytes of the whole string, prefix included, so receivers use it as given. */
    static String generate() {
        byte[] bytes = new byte[RANDOM_BYTES];
        RANDOM.nextBytes(bytes);
        return "whsec_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
