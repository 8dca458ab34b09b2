package dev.lnp.plugins.trials;

import dev.lnp.api.http.ApiProblem;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;

/**
 * Reasoning challenges: a small word problem generated from random numbers, whose whole-number answer n must be
 * turned into {@code sha256("<n>:<challenge_id>:<owner_email lower-cased>:<workspace_name>")}. The token carries
 * the parameters and expiry, encrypted and authenticated ({@link ChallengeToken}) under a key derived from a
 * secret kept in the database, so every node can open it and the agent learns nothing from it but has to read the
 * question; nothing is stored when a challenge is handed out. Spending one records its id (single use, wrong answers
 * included), and the answer is bound to the request's owner and workspace name, so a replayed or transplanted
 * answer fails.
 */
final class Challenges {

    private static final SecureRandom RANDOM = new SecureRandom();

    static final String ANSWER_FORMAT = "Let n be the whole-number answer to the question. The answer is the "
            + "lowercase hex SHA-256 of the UTF-8 string \"<n>:<challenge_id>:<owner_email in lower case>:"
            + "<workspace_name exactly as submitted>\", e.g. sha256(\"1234:" + "<challenge_id>"
            + ":ada@example.com:Acme trial\").";

    private volatile ChallengeToken tokens;

    /** @param secret the deployment's challenge secret, the same on every node (kept in the database) */
    void useSecret(byte[] secret) {
        this.tokens = new ChallengeToken(secret);
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
        Instant expires = Instant.ofEpochSecond(now.plus(TrialScopes.CHALLENGE_LIFETIME).getEpochSecond());
        String token = tokens().seal(new ChallengeToken.Content(id, template, p, expires));
        return new Challenge(id, question(template, p), ANSWER_FORMAT, token, expires);
    }

    /**
     * Checks that the token is one this deployment sealed and has not expired (422 otherwise), and whether the
     * answer is right for this owner and workspace name; spending the id is the caller's job.
     */
    Verified verify(String token, String answer, String ownerEmail, String workspaceName, Instant now) {
        ChallengeToken.Content content = tokens().open(token).orElseThrow(() -> invalid("/challenge/token",
                "challenge_invalid", "The challenge token is not one this server issued; send the token from "
                        + "GET /api/agent-trials/challenge unchanged."));
        if (!now.isBefore(content.expiresAt())) {
            throw invalid("/challenge/token", "challenge_expired", "The challenge expired at "
                    + content.expiresAt() + "; get a new one from GET /api/agent-trials/challenge and solve it "
                    + "within 2 minutes.");
        }
        String expected = expectedAnswer(solve(content.template(), content.parameters()), content.id(), ownerEmail,
                workspaceName);
        boolean correct = MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                answer.getBytes(StandardCharsets.US_ASCII));
        return new Verified(content.id(), content.expiresAt(), correct);
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

    private ChallengeToken tokens() {
        ChallengeToken sealer = tokens;
        if (sealer == null) {
            throw new IllegalStateException("the trials plugin has not started");
        }
        return sealer;
    }

    static ApiProblem invalid(String pointer, String code, String detail) {
        return new ApiProblem(422, code, "Unprocessable Content", detail,
                java.util.List.of(new dev.lnp.api.http.FieldError(pointer, code, detail)), java.util.Map.of());
    }
}
