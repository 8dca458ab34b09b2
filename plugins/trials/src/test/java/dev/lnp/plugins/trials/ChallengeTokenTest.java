package dev.lnp.plugins.trials;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.http.ApiProblem;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The sealed challenge token on its own: it opens only unaltered, only under the same secret, and expires. */
class ChallengeTokenTest {

    private static final byte[] SECRET = "a deployment secret of 32 bytes!".getBytes();
    private static final Instant NOW = Instant.parse("2026-05-01T10:00:00Z");

    private static Challenges challenges(byte[] secret) {
        Challenges c = new Challenges();
        c.useSecret(secret);
        return c;
    }

    @Test
    void aSealedTokenOpensToWhatWasSealed() {
        ChallengeToken tokens = new ChallengeToken(SECRET);
        UUID id = UUID.randomUUID();
        int[] p = {80, 7, 22, 0};
        var opened = tokens.open(tokens.seal(new ChallengeToken.Content(id, 0, p, NOW))).orElseThrow();
        assertEquals(id, opened.id());
        assertEquals(0, opened.template());
        assertArrayEquals(p, opened.parameters());
        assertEquals(NOW, opened.expiresAt());
    }

    @Test
    void theSameContentSealsDifferentlyEveryTimeAndEveryTokenHasTheSameLength() {
        ChallengeToken tokens = new ChallengeToken(SECRET);
        var content = new ChallengeToken.Content(UUID.randomUUID(), 1, new int[] {3, 20, 2, 0}, NOW);
        assertNotEquals(tokens.seal(content), tokens.seal(content));
        Set<Integer> lengths = new HashSet<>();
        Challenges c = challenges(SECRET);
        for (int i = 0; i < 50; i++) {
            lengths.add(c.issue(NOW).token().length());
        }
        assertEquals(1, lengths.size(), "the length would tell the questions apart");
    }

    @Test
    void everyAlteredByteIsRefusedAsNotOurs() {
        ChallengeToken tokens = new ChallengeToken(SECRET);
        String token = tokens.seal(new ChallengeToken.Content(UUID.randomUUID(), 2, new int[] {40, 3, 15, 0}, NOW));
        byte[] raw = Base64.getUrlDecoder().decode(token);
        for (int i = 0; i < raw.length; i++) {
            byte[] altered = raw.clone();
            altered[i] ^= 0x01;
            assertTrue(tokens.open(Base64.getUrlEncoder().withoutPadding().encodeToString(altered)).isEmpty(),
                    "byte " + i);
        }
        assertTrue(tokens.open(token.substring(1)).isEmpty());
        assertTrue(tokens.open(token + "A").isEmpty());
        assertTrue(tokens.open("not base64 !").isEmpty());
        assertTrue(tokens.open("").isEmpty());
        assertTrue(new ChallengeToken("another deployment's secret!!!!!".getBytes()).open(token).isEmpty(),
                "a token of another deployment");
    }

    @Test
    void aTamperedTokenAndAnExpiredOneAreClearProblems() {
        Challenges c = challenges(SECRET);
        var challenge = c.issue(NOW);
        char first = challenge.token().charAt(5);
        String tampered = challenge.token().substring(0, 5) + (first == 'A' ? 'B' : 'A')
                + challenge.token().substring(6);
        ApiProblem invalid = assertThrows(ApiProblem.class,
                () -> c.verify(tampered, "0".repeat(64), "ada@example.com", "Trial", NOW));
        assertEquals(422, invalid.status());
        assertEquals("challenge_invalid", invalid.code());
        assertEquals("/challenge/token", invalid.errors().get(0).pointer());

        ApiProblem expired = assertThrows(ApiProblem.class, () -> c.verify(challenge.token(), "0".repeat(64),
                "ada@example.com", "Trial", NOW.plus(Duration.ofMinutes(2))));
        assertEquals("challenge_expired", expired.code());
        assertTrue(expired.detail().contains(challenge.expiresAt().toString()), expired.detail());
    }

    @Test
    void theRightAnswerIsRecognisedOnAnyNodeWithTheSameSecret() {
        var challenge = challenges(SECRET).issue(NOW);
        long n = Agent.solve(challenge.question());
        String answer = Challenges.expectedAnswer(n, challenge.id(), "Ada@Example.com", "Trial");
        Challenges otherNode = challenges(SECRET.clone());
        var verified = otherNode.verify(challenge.token(), answer, "ada@example.com", "Trial", NOW);
        assertTrue(verified.correct());
        assertEquals(challenge.id(), verified.id());
        assertFalse(otherNode.verify(challenge.token(), answer, "ada@example.com", "Other", NOW).correct());
    }
}
