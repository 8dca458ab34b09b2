package dev.lnp.webhooks.signature;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StandardWebhookSignatureTest {

    // The Standard Webhooks specification's own test vector; recomputed independently with
    //   printf '%s' 'msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314}' \
    //     | openssl dgst -sha256 -mac HMAC -macopt hexkey:$(printf MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw | base64 -d | xxd -p) -binary | base64
    static final String SPEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    static final String SPEC_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    static final long SPEC_TIMESTAMP = 1_614_265_330L;
    static final byte[] SPEC_BODY = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
    static final String SPEC_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
    static final Instant SPEC_NOW = Instant.ofEpochSecond(SPEC_TIMESTAMP + 10);

    @Test
    void signsTheSpecificationsVectorWithTheDecodedSecret() {
        assertEquals(SPEC_SIGNATURE, StandardWebhookSignature.sign(SPEC_SECRET, SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY));
        assertTrue(StandardWebhookSignature.isValid(SPEC_SECRET, SPEC_ID, "1614265330", SPEC_SIGNATURE, SPEC_BODY, SPEC_NOW));
    }

    @Test
    void aHeaderCarriesOneSignaturePerStandardSecretAndAnyOneVerifies() {
        String other = "whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[32]);
        String header = StandardWebhookSignature.header(List.of(other, SPEC_SECRET), SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY)
                .orElseThrow();
        assertEquals(2, header.split(" ").length, header);
        assertTrue(header.endsWith(" " + SPEC_SIGNATURE), header);
        assertTrue(StandardWebhookSignature.isValid(SPEC_SECRET, SPEC_ID, "1614265330", header, SPEC_BODY, SPEC_NOW));
        assertTrue(StandardWebhookSignature.isValid(other, SPEC_ID, "1614265330", header, SPEC_BODY, SPEC_NOW));
    }

    @Test
    void onlyWhsecStandardBase64SecretsSignThisHeader() {
        assertTrue(StandardWebhookSignature.key(SPEC_SECRET).isPresent());
        assertEquals(Optional.empty(), StandardWebhookSignature.key("whsec_Jx3-url_safe-0000000000000000000000000000"));
        assertEquals(Optional.empty(), StandardWebhookSignature.key("whsec_abc"), "unpadded");
        assertEquals(Optional.empty(), StandardWebhookSignature.key("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
        assertEquals(Optional.empty(), StandardWebhookSignature.key("whsec_"));
        assertEquals(Optional.empty(), StandardWebhookSignature.header(
                List.of("whsec_raw-subscription-secret-0000000000000"), SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY));
        assertThrows(IllegalArgumentException.class,
                () -> StandardWebhookSignature.sign("whsec_not base64", SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY));
    }

    @Test
    void refusesAChangedIdTimestampBodyOrAStaleTimestamp() {
        byte[] changed = "{\"test\": 2432232315}".getBytes(StandardCharsets.UTF_8);
        assertFalse(StandardWebhookSignature.isValid(SPEC_SECRET, "msg_other", "1614265330", SPEC_SIGNATURE, SPEC_BODY, SPEC_NOW));
        assertFalse(StandardWebhookSignature.isValid(SPEC_SECRET, SPEC_ID, "1614265331", SPEC_SIGNATURE, SPEC_BODY, SPEC_NOW));
        assertFalse(StandardWebhookSignature.isValid(SPEC_SECRET, SPEC_ID, "1614265330", SPEC_SIGNATURE, changed, SPEC_NOW));
        assertFalse(StandardWebhookSignature.isValid(SPEC_SECRET, SPEC_ID, "1614265330", SPEC_SIGNATURE, SPEC_BODY,
                Instant.ofEpochSecond(SPEC_TIMESTAMP + 301)));
        assertFalse(StandardWebhookSignature.isValid(SPEC_SECRET, SPEC_ID, "soon", SPEC_SIGNATURE, SPEC_BODY, SPEC_NOW));
    }
}
