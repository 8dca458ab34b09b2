package dev.lnp.testkit.tokens;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.internal.tokens.SessionTokens;
import dev.lnp.tokens.SigningKeyRing;
import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The session-token key ring on a real database with a clock the test moves: rotation, old keys verifying until
 * their last token expired, two nodes sharing the ring, expiry and audience.
 */
@PlatformTest(plugins = "probe")
class SessionTokensTest {

    /** A clock the test moves. */
    static final class MovableClock extends Clock {
        private volatile Instant now;

        MovableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    @Test
    void keysRotateAndOldKeysVerifyUntilTheirLastTokenExpired(TestPlatform platform) throws Exception {
        // Far in the future, so that keys the platform itself made (at the real time) do not interfere.
        var clock = new MovableClock(Instant.parse("2100-01-01T00:00:00Z"));
        var nodeA = new SigningKeyRing(platform.jdbi(), clock, "https://platform.example/", Duration.ofHours(1));
        var nodeB = new SigningKeyRing(platform.jdbi(), clock, "https://platform.example/", Duration.ofHours(1));

        var first = nodeA.issue("aud-x", Map.of("sid", "s1"), Duration.ofMinutes(10));
        assertEquals("s1", nodeB.verify("aud-x", first.token()).get("sid"), "another node verifies");
        assertEquals(first.id(), nodeB.verify("aud-x", first.token()).get("jti"));
        assertEquals(kid(first.token()), kid(nodeB.issue("aud-x", Map.of(), Duration.ofMinutes(1)).token()),
                "both nodes sign with the same current key");

        clock.advance(Duration.ofMinutes(55));
        var late = nodeA.issue("aud-x", Map.of("sid", "s2"), Duration.ofMinutes(15));
        clock.advance(Duration.ofMinutes(6)); // past the rotation
        var rotated = nodeB.issue("aud-x", Map.of("sid", "s3"), Duration.ofMinutes(5));
        assertNotEquals(kid(first.token()), kid(rotated.token()), "a new key signs after the rotation period");
        assertEquals(kid(rotated.token()), kid(nodeA.issue("aud-x", Map.of(), Duration.ofMinutes(1)).token()));
        assertEquals("s2", nodeA.verify("aud-x", late.token()).get("sid"), "the old key still verifies its tokens");

        clock.advance(Duration.ofMinutes(10)); // late's 15 minutes are over
        var expired = assertThrows(SessionTokens.Rejected.class, () -> nodeA.verify("aud-x", late.token()));
        assertTrue(expired.expired());
        var otherAudience = assertThrows(SessionTokens.Rejected.class,
                () -> nodeA.verify("aud-y", nodeA.issue("aud-x", Map.of(), Duration.ofMinutes(1)).token()));
        assertFalse(otherAudience.expired());
        assertThrows(IllegalArgumentException.class, () -> nodeA.issue("aud-x", Map.of(), Duration.ofMinutes(16)));
        assertThrows(IllegalArgumentException.class, () -> nodeA.issue("aud-x", Map.of("exp", "1"),
                Duration.ofMinutes(1)));
        // A node that never saw the old key (fresh cache) no longer accepts it once its verifying time is over.
        clock.advance(Duration.ofHours(2));
        var fresh = new SigningKeyRing(platform.jdbi(), clock, "https://platform.example/", Duration.ofHours(1));
        var unknown = assertThrows(SessionTokens.Rejected.class, () -> fresh.verify("aud-x", first.token()));
        assertFalse(unknown.expired(), "refused for its unknown key, before its time is looked at");
        assertTrue(unknown.getMessage().contains("unknown"), unknown.getMessage());
    }

    private static String kid(String token) {
        String header = new String(Base64.getUrlDecoder().decode(token.split("\\.")[0]), StandardCharsets.UTF_8);
        return header.replaceAll(".*\"kid\":\"([^\"]+)\".*", "$1");
    }
}
