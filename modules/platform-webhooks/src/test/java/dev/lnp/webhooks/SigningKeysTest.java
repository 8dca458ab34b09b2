package dev.lnp.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.webhooks.signature.StandardWebhookSignature;
import dev.lnp.webhooks.signature.WebhookSignature;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The cached, cloned keys sign exactly as the public verifiers compute, however often and however parallel. */
class SigningKeysTest {

    private static final String STANDARD = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String OLD_BASE64URL = "whsec_ab-_cd_-ef";
    private final SigningKeys keys = new SigningKeys();

    @Test
    void everyCallSignsAsTheVerifierDoesWithAKeyUsedBefore() {
        for (int i = 0; i < 5; i++) { // a prototype updated by a signature would change the next one
            byte[] body = ("{\"i\":" + i + "}").getBytes(StandardCharsets.UTF_8);
            for (String secret : List.of(STANDARD, OLD_BASE64URL, "whsec_é")) {
                assertEquals(WebhookSignature.sign(secret, 1_700_000_000L + i, body), keys.sign(secret, 1_700_000_000L + i, body));
            }
            assertEquals(StandardWebhookSignature.header(List.of(STANDARD, OLD_BASE64URL), "d" + i, 1_700_000_000L + i, body),
                    keys.standardHeader(List.of(STANDARD, OLD_BASE64URL), "d" + i, 1_700_000_000L + i, body));
        }
    }

    @Test
    void theStandardHeaderHasOneSignaturePerSecretInThatFormAndNoneForOthers() {
        String newer = "whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[32]);
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        String header = keys.standardHeader(List.of(newer, STANDARD), "id", 42, body).orElseThrow();
        assertEquals(StandardWebhookSignature.sign(newer, "id", 42, body) + " "
                + StandardWebhookSignature.sign(STANDARD, "id", 42, body), header);
        assertEquals(Optional.empty(), keys.standardHeader(List.of(OLD_BASE64URL), "id", 42, body));
    }

    @Test
    void parallelAttemptsWithOneSecretDoNotShareState() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 2_000; i++) {
                        byte[] body = ("{\"t\":" + thread + ",\"i\":" + i + "}").getBytes(StandardCharsets.UTF_8);
                        if (!WebhookSignature.sign(STANDARD, i, body).equals(keys.sign(STANDARD, i, body))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertTrue(result.get(), "a signature made beside others matches the verifier's");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void moreSecretsThanTheCacheHoldsStillSignRight() {
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < SigningKeys.MAX_KEYS + 10; i++) {
            keys.sign("whsec_" + i, 1, body);
        }
        assertEquals(WebhookSignature.sign(STANDARD, 7, body), keys.sign(STANDARD, 7, body));
        assertEquals(WebhookSignature.sign("whsec_3", 7, body), keys.sign("whsec_3", 7, body));
    }
}
