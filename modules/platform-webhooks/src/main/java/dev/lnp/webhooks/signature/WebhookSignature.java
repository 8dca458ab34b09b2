package dev.lnp.webhooks.signature;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs and verifies webhook deliveries. A receiver needs only this class (and the JDK):
 *
 * <pre>{@code
 * WebhookSignature.verify(secret, request.header("X-Service-Timestamp"), request.header("X-Service-Signature"),
 *         request.header("X-Service-Signature-Next"), rawBodyBytes, Instant.now());
 * }</pre>
 *
 * <p>The signed string is {@code <timestamp seconds>.<raw body bytes>}; a signature is
 * {@code sha256=<lowercase hex HMAC-SHA256>} keyed with the UTF-8 bytes of the subscription's whole secret.
 * {@code X-Service-Signature} always carries exactly one signature, compared in full. After a rotation, while the
 * previous secret is still valid, {@code X-Service-Signature} is signed with the <em>previous</em> secret (so a
 * receiver that has not updated yet keeps working) and {@code X-Service-Signature-Next} with the new one; a
 * delivery is authentic when either header matches the receiver's secret. The Standard Webhooks headers are
 * {@link StandardWebhookSignature}'s.
 */
public final class WebhookSignature {

    public static final String DELIVERY_ID_HEADER = "X-Service-Delivery-Id";
    public static final String TIMESTAMP_HEADER = "X-Service-Timestamp";
    public static final String SIGNATURE_HEADER = "X-Service-Signature";
    /** During a rotation's overlap: the signature with the new secret, which signs {@link #SIGNATURE_HEADER} after it. */
    public static final String NEXT_SIGNATURE_HEADER = "X-Service-Signature-Next";
    public static final String EVENT_HEADER = "X-Service-Event";

    /** How far a timestamp may be from the receiver's clock, either way: replays older than this are refused. */
    public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

    private static final String PREFIX = "sha256=";
    private static final HexFormat HEX = HexFormat.of();

    private WebhookSignature() {
    }

    /** One signature, {@code sha256=<hex>}, of {@code body} sent at {@code timestampSeconds}. */
    public static String sign(String secret, long timestampSeconds, byte[] body) {
        return PREFIX + HEX.formatHex(hmac(secret, timestampSeconds, body));
    }

    /** Whether the delivery is authentic and recent, with the default tolerance of five minutes. */
    public static boolean isValid(String secret, String timestampHeader, String signatureHeader, byte[] body,
            Instant now) {
        return isValid(secret, timestampHeader, signatureHeader, null, body, now);
    }

    /** As {@link #isValid(String, String, String, byte[], Instant)}, also accepting the rotation header. */
    public static boolean isValid(String secret, String timestampHeader, String signatureHeader,
            String nextSignatureHeader, byte[] body, Instant now) {
        try {
            verify(secret, timestampHeader, signatureHeader, nextSignatureHeader, body, now, DEFAULT_TOLERANCE);
            return true;
        } catch (InvalidSignatureException e) {
            return false;
        }
    }

    /** As {@link #verify(String, String, String, String, byte[], Instant, Duration)} without the rotation header. */
    public static void verify(String secret, String timestampHeader, String signatureHeader, byte[] body, Instant now)
            throws InvalidSignatureException {
        verify(secret, timestampHeader, signatureHeader, null, body, now, DEFAULT_TOLERANCE);
    }

    /** As {@link #verify(String, String, String, String, byte[], Instant, Duration)} without the rotation header. */
    public static void verify(String secret, String timestampHeader, String signatureHeader, byte[] body, Instant now,
            Duration tolerance) throws InvalidSignatureException {
        verify(secret, timestampHeader, signatureHeader, null, body, now, tolerance);
    }

    /** As {@link #verify(String, String, String, String, byte[], Instant, Duration)} with the default tolerance. */
    public static void verify(String secret, String timestampHeader, String signatureHeader, String nextSignatureHeader,
            byte[] body, Instant now) throws InvalidSignatureException {
        verify(secret, timestampHeader, signatureHeader, nextSignatureHeader, body, now, DEFAULT_TOLERANCE);
    }

    /**
     * Checks the timestamp (a whole number of seconds within {@code tolerance} of {@code now}), then compares
     * {@code X-Service-Signature} and, when present, {@code X-Service-Signature-Next}, each in full and in constant
     * time, against the signature {@code secret} gives. Either matching is enough: during a rotation the receiver
     * holds the previous secret (matches the first) or already the new one (matches the second).
     *
     * @param nextSignatureHeader the {@code X-Service-Signature-Next} header, or null when absent
     * @throws InvalidSignatureException naming what is wrong (missing header, stale timestamp, no match)
     */
    public static void verify(String secret, String timestampHeader, String signatureHeader, String nextSignatureHeader,
            byte[] body, Instant now, Duration tolerance) throws InvalidSignatureException {
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(body, "body");
        if (timestampHeader == null || timestampHeader.isBlank()) {
            throw new InvalidSignatureException("missing " + TIMESTAMP_HEADER + " header");
        }
        if (signatureHeader == null || signatureHeader.isBlank()) {
            throw new InvalidSignatureException("missing " + SIGNATURE_HEADER + " header");
        }
        long timestamp;
        try {
            timestamp = Long.parseLong(timestampHeader.trim());
        } catch (NumberFormatException e) {
            throw new InvalidSignatureException(TIMESTAMP_HEADER + " is not a number of seconds");
        }
        long age = now.getEpochSecond() - timestamp;
        if (Math.abs(age) > tolerance.toSeconds()) {
            throw new InvalidSignatureException(TIMESTAMP_HEADER + " is " + age + " s from now, more than "
                    + tolerance.toSeconds() + " s");
        }
        byte[] expected = sign(secret, timestamp, body).getBytes(StandardCharsets.US_ASCII);
        // Both are compared, in constant time, so the timing tells nothing about which one matched.
        boolean matched = MessageDigest.isEqual(expected, signatureHeader.strip().getBytes(StandardCharsets.US_ASCII));
        if (nextSignatureHeader != null) {
            matched |= MessageDigest.isEqual(expected, nextSignatureHeader.strip().getBytes(StandardCharsets.US_ASCII));
        }
        if (!matched) {
            throw new InvalidSignatureException("neither " + SIGNATURE_HEADER + " nor " + NEXT_SIGNATURE_HEADER
                    + " matches");
        }
    }

    private static byte[] hmac(String secret, long timestampSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestampSeconds + ".").getBytes(StandardCharsets.US_ASCII));
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** A delivery that is not authentic or too old. */
    public static final class InvalidSignatureException extends Exception {
        public InvalidSignatureException(String message) {
            super(message);
        }
    }
}
