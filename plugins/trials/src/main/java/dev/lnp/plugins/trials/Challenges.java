package dev.lnp.plugins.trials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Reasoning challenges: a small word problem generated from random numbers, whose whole-number answer n must be
 * turned into {@code sha256("<n>:<challenge_id>:<owner_email lower-cased>:<workspace_name>")}. The token carries
 * the parameters and expiry, signed with HMAC-SHA256 under a secret kept in the database (every node verifies);
 * nothing is stored when a challenge is handed out. Spending one records its id (single use, wrong answers
 * included), and the answer is bound to the request's owner and workspace name, so a replayed or transplanted
 * answer fails.
 */
final class Challenges {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getUrlDecoder();

    static final String ANSWER_FORMAT = "Let n be the whole-number answer to the question. The answer is the "
            + "lowercase hex SHA-256 of the UTF-8 string \"<n>:<challenge_id>:<owner_email in lower case>:"
            + "<workspace_name exactly as submitted>\", e.g. sha256(\"1234:" + "<challenge_id>"
            + ":ada@example.com:Acme trial\").";

    private volatile byte[] secret;

    void useSecret(byte[] secret) {
        this.secret = secret.clone();
    }

    /** A challenge handed to an agent. */
    record Challenge(UUID id, String question, String answerFormat, String token, Instant expiresAt) {
    }

    /** A token whose signature and expiry check out. */
    record Verified(UUID id, Instant expiresAt, boolean correct) {
    }

    Challenge issue(Instant now) {
        UUID id = UUID.randomUUID();
        int template = RANDOM.nextInt(3);
        int[] p = switch (template) {
            case 0 -> new int[] {between(12, 48), between(6, 24), 0, between(1, 20)};
            case 1 -> new int[] {between(3, 9), between(20, 60), between(2, 6), 0};
            default -> new int[] {between(40, 90), between(3, 8), between(15, 35), 0};
        };
        if (template == 0) {
            p[2] = between(3, p[0] * p[1] / 2);
        }
        Instant expires = now.plus(TrialScopes.CHALLENGE_LIFETIME);
        ObjectNode payload = Json.object().put("v", 1).put("id", id.toString()).put("t", template)
                .put("exp", expires.getEpochSecond());
        var params = payload.putArray("p");
        for (int value : p) {
            params.add(value);
        }
        String body = B64.encodeToString(payload.toString().getBytes(StandardCharsets.UTF_8));
        String token = body + "." + B64.encodeToString(mac(body));
        return new Challenge(id, question(template, p), ANSWER_FORMAT, token, Instant.ofEpochSecond(expires.getEpochSecond()));
    }

    /**
     * Checks the signature and expiry (422 otherwise) and whether the answer is right for this owner and
     * workspace name; spending the id is the caller's job.
     */
    Verified verify(String token, String answer, String ownerEmail, String workspaceName, Instant now) {
        int dot = token.indexOf('.');
        if (dot <= 0 || dot == token.length() - 1) {
            throw invalid("/challenge/token", "challenge_invalid", "The challenge token is not one this server issued.");
        }
        String body = token.substring(0, dot);
        byte[] signature;
        JsonNode payload;
        try {
            signature = B64D.decode(token.substring(dot + 1));
            payload = Json.mapper().readTree(B64D.decode(body));
        } catch (IllegalArgumentException | java.io.IOException e) {
            throw invalid("/challenge/token", "challenge_invalid", "The challenge token is not one this server issued.");
        }
        if (!MessageDigest.isEqual(signature, mac(body)) || payload == null || !payload.path("id").isTextual()) {
            throw invalid("/challenge/token", "challenge_invalid", "The challenge token is not one this server issued.");
        }
        Instant expires = Instant.ofEpochSecond(payload.path("exp").asLong());
        if (!now.isBefore(expires)) {
            throw invalid("/challenge/token", "challenge_expired", "The challenge expired at " + expires
                    + "; get a new one from GET /api/agent-trials/challenge and solve it within 2 minutes.");
        }
        UUID id = UUID.fromString(payload.path("id").asText());
        int template = payload.path("t").asInt();
        int[] p = new int[4];
        for (int i = 0; i < 4; i++) {
            p[i] = payload.path("p").path(i).asInt();
        }
        String expected = expectedAnswer(solve(template, p), id, ownerEmail, workspaceName);
        boolean correct = MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                answer.getBytes(StandardCharsets.US_ASCII));
        return new Verified(id, expires, correct);
    }

    static String expectedAnswer(long n, UUID challengeId, String ownerEmail, String workspaceName) {
        return sha256Hex(n + ":" + challengeId + ":" + ownerEmail.strip().toLowerCase(Locale.ROOT) + ":" + workspaceName);
    }

    static String sha256Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String question(int template, int[] p) {
        return switch (template) {
            case 0 -> "A warehouse receives " + p[0] + " crates holding " + p[1] + " parcels each. Couriers then "
                    + "take " + p[2] + " parcels away, and " + p[3] + " parcels come back as returns. How many "
                    + "parcels are in the warehouse now?";
            case 1 -> "A team of " + p[0] + " people each answer " + p[1] + " support tickets a week. Over "
                    + p[2] + " weeks, how many tickets does the team answer in total?";
            default -> "A library owns " + p[0] + " shelves with " + p[1] + " rows of books each; every row "
                    + "holds " + p[2] + " books. How many books does the library own?";
        };
    }

    static long solve(int template, int[] p) {
        return switch (template) {
            case 0 -> (long) p[0] * p[1] - p[2] + p[3];
            case 1 -> (long) p[0] * p[1] * p[2];
            default -> (long) p[0] * p[1] * p[2];
        };
    }

    private static int between(int low, int high) {
        return low + RANDOM.nextInt(high - low + 1);
    }

    private byte[] mac(String body) {
        byte[] key = secret;
        if (key == null) {
            throw new IllegalStateException("the trials plugin has not started");
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(body.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static ApiProblem invalid(String pointer, String code, String detail) {
        return new ApiProblem(422, code, "Unprocessable Content", detail,
                java.util.List.of(new dev.lnp.api.http.FieldError(pointer, code, detail)), java.util.Map.of());
    }
}
