package dev.lnp.api.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs and verifies webhook deliveries. A receiver needs only this class (and the JDK):
 *
 * <pre>{@code
 * WebhookSignature.verify(secret, request.header("X-Service-Timestamp"),
 *         request.header("X-Service-Signature"), rawBodyBytes, Instant.now());
 * }</pre>
 *
 * <p>The signed string is {@code <timestamp seconds>.<raw body bytes>}; the signature is
 * {@code sha256=<lowercase hex HMAC-SHA256>} keyed with the UTF-8 bytes of the subscription's secret. While a
 * rotated secret is still valid the header carries one signature per valid secret, separated by commas
 * ({@code sha256=ab…,sha256=cd…}); a delivery is authentic when any of them matches.
 */
public final class WebhookSignature {

    public static final String DELIVERY_ID_HEADER = "X-Service-Delivery-Id";
    public static final String TIMESTAMP_HEADER = "X-Service-Timestamp";
    public static final String SIGNATURE_HEADER = "X-Service-Signature";
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

    /** The signature header value for every valid secret, newest first. */
    public static String header(List<String> secrets, long timestampSeconds, byte[] body) {
        if (secrets.isEmpty()) {
            throw new IllegalArgumentException("at least one secret is needed to sign");
        }
        StringBuilder header = new StringBuilder();
        for (String secret : secrets) {
            if (!header.isEmpty()) {
                header.append(',');
            }
            header.append(sign(secret, timestampSeconds, body));
        }
        return header.toString();
    }

    /** Whether the delivery is authentic and recent, with the default tolerance of five minutes. */
    public static boolean isValid(String secret, String timestampHeader, String signatureHeader, byte[] body,
            Instant now) {
        try {
            verify(secret, timestampHeader, signatureHeader, body, now);
            return true;
        } catch (InvalidSignatureException e) {
            return false;
        }
    }

    /** As {@link #verify(String, String, String, byte[], Instant, Duration)} with the default tolerance. */
    public static void verify(String secret, String timestampHeader, String signatureHeader, byte[] body, Instant now)
            throws InvalidSignatureException {
        verify(secret, timestampHeader, signatureHeader, body, now, DEFAULT_TOLERANCE);
    }

    /**
     * Checks the timestamp (a whole number of seconds within {@code tolerance} of {@code now}), then compares
     * every {@code sha256=} signature in the header against the expected one in constant time.
     *
     * @throws InvalidSignatureException naming what is wrong (missing header, stale timestamp, no match)
     */
    public static void verify(String secret, String timestampHeader, String signatureHeader, byte[] body,
            Instant now, Duration tolerance) throws InvalidSignatureException {
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
        boolean matched = false;
        for (String candidate : signatureHeader.split("[,\\s]+")) {
            // Every candidate is compared, in constant time, so the timing tells nothing about which matched.
            matched |= MessageDigest.isEqual(expected, candidate.getBytes(StandardCharsets.US_ASCII));
        }
        if (!matched) {
            throw new InvalidSignatureException("no signature in " + SIGNATURE_HEADER + " matches");
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
