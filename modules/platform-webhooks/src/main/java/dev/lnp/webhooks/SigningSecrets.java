package dev.lnp.webhooks;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * New subscription secrets: {@code whsec_} and 32 random bytes in standard base64 with padding (50 characters),
 * the form Standard Webhooks verifiers decode. Secrets issued before were base64url; they keep working for the
 * contract's header and are replaced by this form on their next rotation.
 */
final class SigningSecrets {

    static final int RANDOM_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private SigningSecrets() {
    }

    /**
     * For {@code X-Service-Signature} the HMAC key is the UTF-8 bytes of the whole string, prefix included, so
     * receivers use it as given; for {@code webhook-signature} it is the decoded bytes, as Standard Webhooks says.
     */
    static String generate() {
        byte[] bytes = new byte[RANDOM_BYTES];
        RANDOM.nextBytes(bytes);
        return "whsec_" + Base64.getEncoder().encodeToString(bytes);
    }
}
