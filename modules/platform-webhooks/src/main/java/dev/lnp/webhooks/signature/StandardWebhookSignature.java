package dev.lnp.webhooks.signature;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The Standard Webhooks signature (standardwebhooks.com), sent beside the contract's {@code X-Service-*} headers
 * so that receivers can use off-the-shelf verifiers: {@code webhook-id} (the delivery id), {@code
 * webhook-timestamp} (Unix seconds) and {@code webhook-signature}, a space-separated list of {@code v1,<base64 of
 * HMAC-SHA256 over "id.timestamp.body">}, one per valid secret. The HMAC key is the base64-<em>decoded</em> part
 * of the secret after {@code whsec_} (unlike {@link WebhookSignature}, which keys with the whole string's UTF-8
 * bytes). Only secrets in that form, {@code whsec_} + standard base64 with padding, sign this header: older
 * subscriptions whose secret is base64url get it after one rotation.
 */
public final class StandardWebhookSignature {

    public static final String ID_HEADER = "webhook-id";
    public static final String TIMESTAMP_HEADER = "webhook-timestamp";
    public static final String SIGNATURE_HEADER = "webhook-signature";

    private static final String SECRET_PREFIX = "whsec_";
    private static final String VERSION = "v1,";
    private static final Pattern STANDARD_BASE64 = Pattern.compile("(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");

    private StandardWebhookSignature() {
    }

    /** The HMAC key of a Standard Webhooks secret, or empty when {@code secret} is not {@code whsec_<base64>}. */
    public static Optional<byte[]> key(String secret) {
        if (secret == null || !secret.startsWith(SECRET_PREFIX)) {
            return Optional.empty();
        }
        String encoded = secret.substring(SECRET_PREFIX.length());
        if (encoded.isEmpty() || !STANDARD_BASE64.matcher(encoded).matches()) {
            return Optional.empty();
        }
        return Optional.of(Base64.getDecoder().decode(encoded));
    }

    /** {@code v1,<base64>} for one secret, which must be {@code whsec_} + standard base64. */
    public static String sign(String secret, String messageId, long timestampSeconds, byte[] body) {
        byte[] key = key(secret).orElseThrow(() -> new IllegalArgumentException(
                "a Standard Webhooks secret is whsec_ followed by standard base64"));
        return VERSION + Base64.getEncoder().encodeToString(hmac(key, messageId, timestampSeconds, body));
    }

    /** The {@code webhook-signature} value: one signature per secret in that form, or empty when none is. */
    public static Optional<String> header(List<String> secrets, String messageId, long timestampSeconds, byte[] body) {
        List<String> signatures = new ArrayList<>();
        for (String secret : secrets) {
            if (key(secret).isPresent()) {
                signatures.add(sign(secret, messageId, timestampSeconds, body));
            }
        }
        return signatures.isEmpty() ? Optional.empty() : Optional.of(String.join(" ", signatures));
    }

    /**
     * Whether a delivery is authentic: the timestamp is within five minutes of {@code now} and one of the
     * space-separated {@code v1,} signatures matches (each compared in constant time).
     */
    public static boolean isValid(String secret, String idHeader, String timestampHeader, String signatureHeader,
            byte[] body, Instant now) {
        Objects.requireNonNull(body, "body");
        Optional<byte[]> key = key(secret);
        if (key.isEmpty() || idHeader == null || timestampHeader == null || signatureHeader == null
                || !timestampHeader.matches("\\d{1,18}")) {
            return false;
        }
        long timestamp = Long.parseLong(timestampHeader);
        if (Math.abs(now.getEpochSecond() - timestamp) > Duration.ofMinutes(5).toSeconds()) {
            return false;
        }
        byte[] expected = (VERSION + Base64.getEncoder().encodeToString(hmac(key.get(), idHeader, timestamp, body)))
                .getBytes(StandardCharsets.US_ASCII);
        boolean matched = false;
        for (String candidate : signatureHeader.trim().split(" +")) {
            matched |= MessageDigest.isEqual(expected, candidate.getBytes(StandardCharsets.US_ASCII));
        }
        return matched;
    }

    private static byte[] hmac(byte[] key, String messageId, long timestampSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update((messageId + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
