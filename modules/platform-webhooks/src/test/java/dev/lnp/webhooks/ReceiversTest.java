package dev.lnp.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** When a receiver's local queue wakes the claim loop (Dispatcher): once per claim that filled its room. */
class ReceiversTest {

    private static final int PER_RECEIVER = 2; // a local queue of 8, half is 4

    private final Receivers receivers = new Receivers(new WebhookSettings(List.of(), Duration.ofSeconds(2),
            Duration.ofSeconds(10), 8, PER_RECEIVER, 5, Duration.ofSeconds(1), Duration.ofSeconds(1), 100,
            Duration.ofHours(1), 1024, Duration.ofDays(1), Duration.ofDays(1), true));
    private final Receivers.Receiver receiver = receivers.of(URI.create("http://127.0.0.1:9/hooks"));

    private void hold(int n) {
        for (int i = 0; i < n; i++) {
            receiver.hold();
        }
    }

    @Test
    void aClaimThatFilledTheRoomWakesOnceTheQueueIsHalfEmpty() {
        assertEquals(8, receiver.room(PER_RECEIVER));
        hold(8);
        receiver.claimed(true);
        assertEquals(0, receiver.room(PER_RECEIVER));
        for (int left = 7; left > 4; left--) {
            assertFalse(receiver.letGo(PER_RECEIVER), "more than half still held: " + left);
        }
        assertTrue(receiver.letGo(PER_RECEIVER), "half held");
        for (int left = 3; left >= 0; left--) {
            assertFalse(receiver.letGo(PER_RECEIVER), "once per claim: " + left);
        }
    }

    @Test
    void aClaimThatLeftTheQueueBelowHalfStillWakes() {
        // The queue drained while the claim ran: it refilled the room to three of eight, never passing half again.
        hold(3);
        receiver.claimed(true);
        assertTrue(receiver.letGo(PER_RECEIVER));
        assertFalse(receiver.letGo(PER_RECEIVER));
        assertFalse(receiver.letGo(PER_RECEIVER));
    }

    @Test
    void aClaimThatFoundTheQueueFullButDrainedBeforeItEndedClaimsAgainAtOnce() {
        // The claim saw eight held (no room, so it took none for this receiver); all eight were answered while its
        // statement ran, before it recorded that it had filled the room: no letGo is left to wake the loop.
        hold(8);
        for (int left = 7; left >= 0; left--) {
            assertFalse(receiver.letGo(PER_RECEIVER), "the claim before took less than its room: " + left);
        }
        receiver.claimed(true);
        assertTrue(receiver.claimAgainNow(PER_RECEIVER), "nothing held, more probably due");
        assertFalse(receiver.claimAgainNow(PER_RECEIVER), "once per claim");
    }

    @Test
    void aClaimWhoseQueueIsStillMoreThanHalfFullWaitsForItToDrain() {
        hold(6);
        receiver.claimed(true);
        assertFalse(receiver.claimAgainNow(PER_RECEIVER), "six of eight held: a letGo will wake the loop");
        assertFalse(receiver.letGo(PER_RECEIVER));
        assertTrue(receiver.letGo(PER_RECEIVER), "half held");
    }

    @Test
    void aReceiverWithoutRoomIsNotClaimedForAgainAtOnce() {
        // Its circuit is open: every claim "fills" its room of none, and claiming again at once would spin.
        receiver.breaker.open();
        receiver.claimed(true);
        assertFalse(receiver.claimAgainNow(PER_RECEIVER));
        receiver.breaker.halfOpen();
        hold(1);
        receiver.claimed(true);
        assertFalse(receiver.claimAgainNow(PER_RECEIVER), "its single probe is out");
    }

    @Test
    void aClaimThatTookLessThanTheRoomDoesNotWake() {
        // Nothing more was due: new events and due retries wake the loop on their own.
        hold(6);
        receiver.claimed(false);
        for (int left = 5; left >= 0; left--) {
            assertFalse(receiver.letGo(PER_RECEIVER), "left " + left);
        }
        assertFalse(receiver.claimAgainNow(PER_RECEIVER));
    }

    @Test
    void onlySubscriptionsWhoseReceiverIsNotIdleGoIntoTheStatements() {
        UUID busy = UUID.randomUUID();
        UUID sameReceiver = UUID.randomUUID();
        UUID broken = UUID.randomUUID();
        UUID idle = UUID.randomUUID();
        hold(3);
        Receivers.Receiver failing = receivers.of(URI.create("http://127.0.0.2:9/hooks"));
        failing.breaker.open();
        Map<UUID, Receivers.Receiver> seen = Map.of(busy, receiver, sameReceiver, receiver, broken, failing,
                idle, receivers.of(URI.create("http://127.0.0.3:9/hooks")));

        assertEquals(Map.of(busy, 5, sameReceiver, 5, broken, 0), Receivers.roomBelowIdle(seen, PER_RECEIVER),
                "an idle receiver's subscriptions get the idle room without being named");
        failing.breaker.halfOpen();
        assertEquals(1, Receivers.roomBelowIdle(seen, PER_RECEIVER).get(broken), "a single probe while half-open");
    }
}
