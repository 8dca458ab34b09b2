package dev.lnp.plugins.trials;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The challenge token: the question's parameters and expiry sealed with AES-256-GCM, so the agent can neither read
 * them (it has to solve the question as worded) nor change them. The key is derived from the deployment's challenge
 * secret, which every node reads from the database, so any node opens a token another node issued and no state is
 * kept per challenge.
 *
 * <p>Layout, base64url without padding: a version byte, a random 12-byte nonce, then the ciphertext of a fixed-size
 * record (challenge id, template, four parameters, expiry) with its 16-byte tag. Every token has the same length,
 * whatever the question.
 */
final class ChallengeToken {

    private static final byte VERSION = 2;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final int PLAIN_BYTES = 16 + 1 + 4 * 4 + 8;
    private static final int TOKEN_BYTES = 1 + NONCE_BYTES + PLAIN_BYTES + TAG_BITS / 8;
    private static final byte[] ASSOCIATED = "lnp agent-trial challenge v2".getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getUrlDecoder();

    /** What a token carries. */
    record Content(UUID id, int template, int[] parameters, Instant expiresAt) {
    }

    private final SecretKeySpec key;

    ChallengeToken(byte[] secret) {
        this.key = new SecretKeySpec(deriveKey(secret), "AES");
    }

    String seal(Content content) {
        ByteBuffer plain = ByteBuffer.allocate(PLAIN_BYTES)
                .putLong(content.id().getMostSignificantBits())
                .putLong(content.id().getLeastSignificantBits())
                .put((byte) content.template());
        for (int i = 0; i < 4; i++) {
            plain.putInt(content.parameters()[i]);
        }
        plain.putLong(content.expiresAt().getEpochSecond());
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        byte[] sealed;
        try {
            sealed = cipher(Cipher.ENCRYPT_MODE, nonce, plain.array(), 0, PLAIN_BYTES);
        } catch (AEADBadTagException e) {
            throw new IllegalStateException(e);
        }
        return B64.encodeToString(ByteBuffer.allocate(TOKEN_BYTES).put(VERSION).put(nonce).put(sealed).array());
    }

    /** The content of a token this deployment sealed; empty for anything else (malformed, altered, foreign). */
    Optional<Content> open(String token) {
        byte[] raw;
        try {
            raw = B64D.decode(token);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (raw.length != TOKEN_BYTES || raw[0] != VERSION) {
            return Optional.empty();
        }
        byte[] nonce = java.util.Arrays.copyOfRange(raw, 1, 1 + NONCE_BYTES);
        byte[] plain;
        try {
            plain = cipher(Cipher.DECRYPT_MODE, nonce, raw, 1 + NONCE_BYTES, raw.length - 1 - NONCE_BYTES);
        } catch (AEADBadTagException e) {
            // Altered, or sealed under another deployment's secret.
            return Optional.empty();
        }
        ByteBuffer in = ByteBuffer.wrap(plain);
        UUID id = new UUID(in.getLong(), in.getLong());
        int template = in.get();
        int[] parameters = {in.getInt(), in.getInt(), in.getInt(), in.getInt()};
        return Optional.of(new Content(id, template, parameters, Instant.ofEpochSecond(in.getLong())));
    }

    private byte[] cipher(int mode, byte[] nonce, byte[] input, int offset, int length) throws AEADBadTagException {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(ASSOCIATED);
            return cipher.doFinal(input, offset, length);
        } catch (AEADBadTagException e) {
            throw e;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A key for this one purpose (HKDF-Expand with SHA-256, one block), so the stored secret is never used as a
     * cipher key itself and other uses of it cannot collide with this one.
     */
    private static byte[] deriveKey(byte[] secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update("lnp agent-trial challenge token encryption".getBytes(StandardCharsets.US_ASCII));
            mac.update((byte) 1);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
