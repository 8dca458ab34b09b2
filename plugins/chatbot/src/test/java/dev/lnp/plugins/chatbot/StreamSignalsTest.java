package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.http.ApiProblem;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The node's count of open streams: per conversation, per address, in all; a closed stream is counted off once. */
class StreamSignalsTest {

    private static ChatSettings limits(int perSession, int perAddress, int open) {
        return new ChatSettings("http://localhost", "node", Duration.ofMinutes(10), Duration.ofSeconds(30),
                Duration.ofSeconds(5), Duration.ofSeconds(15), Duration.ofSeconds(2), 2000, 20, 600, 60, 30,
                perSession, perAddress, open, Optional.empty(), Optional.empty(), Optional.empty(),
                Duration.ofSeconds(60), Duration.ofSeconds(1), 200_000);
    }

    @Test
    void theNodeRefusesWithA503WhenItHoldsItsMostAndTakesStreamsAgainWhenOneCloses() {
        StreamSignals signals = new StreamSignals();
        ChatSettings limits = limits(5, 20, 2);
        var first = signals.open(UUID.randomUUID(), "10.0.0.1", limits);
        signals.open(UUID.randomUUID(), "10.0.0.2", limits);
        ApiProblem full = assertThrows(ApiProblem.class, () -> signals.open(UUID.randomUUID(), "10.0.0.3", limits));
        assertEquals(503, full.status());
        assertEquals("streams_unavailable", full.code());
        assertEquals("15", full.headers().get("Retry-After"));
        first.close();
        first.close(); // closing twice counts off once
        assertEquals(1, signals.open());
        signals.open(UUID.randomUUID(), "10.0.0.3", limits);
        assertEquals(2, signals.open());
    }

    @Test
    void aConversationAndAnAddressAreCountedSeparately() {
        StreamSignals signals = new StreamSignals();
        ChatSettings limits = limits(1, 2, 100);
        UUID session = UUID.randomUUID();
        var held = signals.open(session, "10.0.0.1", limits);
        ApiProblem sameSession = assertThrows(ApiProblem.class, () -> signals.open(session, "10.0.0.9", limits));
        assertEquals(429, sameSession.status());
        assertTrue(sameSession.detail().contains("this conversation"), sameSession.detail());
        signals.open(UUID.randomUUID(), "10.0.0.1", limits);
        ApiProblem sameAddress = assertThrows(ApiProblem.class,
                () -> signals.open(UUID.randomUUID(), "10.0.0.1", limits));
        assertTrue(sameAddress.detail().contains("this address"), sameAddress.detail());
        held.close();
        signals.open(session, "10.0.0.1", limits);
    }

    @Test
    void aWakeReachesOnlyTheSessionsStreams() throws InterruptedException {
        StreamSignals signals = new StreamSignals();
        UUID session = UUID.randomUUID();
        try (var bell = signals.open(session, "10.0.0.1", limits(5, 20, 100));
                var other = signals.open(UUID.randomUUID(), "10.0.0.1", limits(5, 20, 100))) {
            signals.wake(session.toString());
            long start = System.nanoTime();
            bell.await(Duration.ofSeconds(5));
            assertTrue(System.nanoTime() - start < 2_000_000_000L, "rung at once");
            start = System.nanoTime();
            other.await(Duration.ofMillis(200));
            assertTrue(System.nanoTime() - start >= 150_000_000L, "the other stream was not rung");
        }
    }
}
