package dev.lnp.webhooks.signature;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class WebhookSignatureTest {

    // Golden vector: computed independently with
    //   printf '%s' '1700000000.<body>' | openssl dgst -sha256 -hmac '<secret>'
    static final String SECRET = "whsec_golden-vector-secret-0123456789abcdef";
    static final String OLD_SECRET = "whsec_previous-secret-still-valid-0000000";
    static final long TIMESTAMP = 1_700_000_000L;
    static final byte[] BODY = ("{\"delivery_id\":\"5f0c6f2e-8a59-4b8e-9a51-6f1d2f0e7a10\",\"event\":\"crm.contact.created\","
            + "\"data\":{\"name\":\"Ada\"}}").getBytes(StandardCharsets.UTF_8);
    static final String EXPECTED = "sha256=208ad06dd622bfc65a6ca8c06486dd136be52b37ec84684d762eb8d9477c0ec7";
    static final String EXPECTED_OLD = "sha256=6ce343585056b8d46b3e025995f2790d36d9a8bf390779bd8564d4847fc22c08";
    static final Instant NOW = Instant.ofEpochSecond(TIMESTAMP + 30);

    @Test
    void signsTheGoldenVector() {
        assertEquals(EXPECTED, WebhookSignature.sign(SECRET, TIMESTAMP, BODY));
    }

    @Test
    void theNextHeaderIsAcceptedBesideTheContractHeaderDuringARotation() throws Exception {
        // The platform signs X-Service-Signature with the previous secret and X-Service-Signature-Next with the new.
        assertTrue(WebhookSignature.isValid(OLD_SECRET, "1700000000", EXPECTED_OLD, EXPECTED, BODY, NOW));
        assertTrue(WebhookSignature.isValid(SECRET, "1700000000", EXPECTED_OLD, EXPECTED, BODY, NOW));
        WebhookSignature.verify(SECRET, "1700000000", EXPECTED_OLD, EXPECTED, BODY, NOW);
        assertFalse(WebhookSignature.isValid("whsec_other", "1700000000", EXPECTED_OLD, EXPECTED, BODY, NOW));
        assertFalse(WebhookSignature.isValid(SECRET, "1700000000", EXPECTED_OLD, BODY, NOW),
                "without the next header only the contract header counts");
        assertEquals("neither X-Service-Signature nor X-Service-Signature-Next matches", assertThrows(
                WebhookSignature.InvalidSignatureException.class, () -> WebhookSignature.verify("whsec_other",
                        "1700000000", EXPECTED_OLD, EXPECTED, BODY, NOW)).getMessage());
    }

    @Test
    void theContractHeaderIsComparedInFullAsOneSignature() {
        for (String header : List.of(EXPECTED + "," + EXPECTED_OLD, EXPECTED_OLD + "," + EXPECTED, EXPECTED + " " + EXPECTED_OLD)) {
            assertFalse(WebhookSignature.isValid(SECRET, "1700000000", header, BODY, NOW), header);
        }
    }

    @Test
    void verifiesAGenuineDelivery() throws Exception {
        WebhookSignature.verify(SECRET, "1700000000", EXPECTED, BODY, NOW);
        assertTrue(WebhookSignature.isValid(SECRET, "1700000000", EXPECTED, BODY, NOW));
    }

    @Test
    void refusesAChangedBodyTimestampOrSignature() {
        byte[] changed = new String(BODY, StandardCharsets.UTF_8).replace("Ada", "Eve").getBytes(StandardCharsets.UTF_8);
        assertFalse(WebhookSignature.isValid(SECRET, "1700000000", EXPECTED, changed, NOW));
        assertFalse(WebhookSignature.isValid(SECRET, "1700000001", EXPECTED, BODY, NOW), "timestamp is signed");
        assertFalse(WebhookSignature.isValid(SECRET, "1700000000", EXPECTED.toUpperCase(), BODY, NOW));
        assertFalse(WebhookSignature.isValid(SECRET, "1700000000", EXPECTED.substring(0, 70), BODY, NOW));
        assertFalse(WebhookSignature.isValid(SECRET, "1700000000", EXPECTED.substring("sha256=".length()), BODY, NOW),
                "the scheme prefix is part of the comparison");
    }

    @Test
    void refusesTimestampsOutsideFiveMinutes() {
        var stale = assertThrows(WebhookSignature.InvalidSignatureException.class, () -> WebhookSignature.verify(
                SECRET, "1700000000", EXPECTED, BODY, Instant.ofEpochSecond(TIMESTAMP + 301)));
        assertTrue(stale.getMessage().contains("301"), stale.getMessage());
        assertTrue(WebhookSignature.isValid(SECRET, "1700000000", EXPECTED, BODY, Instant.ofEpochSecond(TIMESTAMP + 300)));
        assertFalse(WebhookSignature.isValid(SECRET, "1700000000", EXPECTED, BODY, Instant.ofEpochSecond(TIMESTAMP - 301)),
                "a timestamp far in the future is refused too");
        assertThrows(WebhookSignature.InvalidSignatureException.class, () -> WebhookSignature.verify(
                SECRET, "1700000000", EXPECTED, BODY, Instant.ofEpochSecond(TIMESTAMP + 61), Duration.ofMinutes(1)));
    }

    @Test
    void namesAMissingOrMalformedHeader() {
        assertEquals("missing X-Service-Timestamp header", assertThrows(WebhookSignature.InvalidSignatureException.class,
                () -> WebhookSignature.verify(SECRET, null, EXPECTED, BODY, NOW)).getMessage());
        assertEquals("missing X-Service-Signature header", assertThrows(WebhookSignature.InvalidSignatureException.class,
                () -> WebhookSignature.verify(SECRET, "1700000000", " ", BODY, NOW)).getMessage());
        assertTrue(assertThrows(WebhookSignature.InvalidSignatureException.class,
                () -> WebhookSignature.verify(SECRET, "yesterday", EXPECTED, BODY, NOW)).getMessage()
                .contains("not a number"));
    }

}
