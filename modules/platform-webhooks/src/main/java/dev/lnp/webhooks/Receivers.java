package dev.lnp.webhooks;

import dev.failsafe.Bulkhead;
import dev.failsafe.CircuitBreaker;
import java.net.URI;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Per-receiver protection on this node, a receiver being a scheme, host and port: a bulkhead of a few
 * attempts in flight, and a circuit breaker that opens after consecutive failures and then lets a single probe
 * through once its delay has passed. A failing receiver therefore costs a probe now and then, and never the
 * attempt slots other receivers need.
 */
final class Receivers {

    /** How many deliveries a node holds for one healthy receiver, per attempt slot: a short local queue. */
    static final int QUEUE_PER_SLOT = 4;

    /** One receiver's policies and how many of its deliveries this node holds (waiting for a slot or in flight). */
    static final class Receiver {
        final String key;
        final CircuitBreaker<Outcome> breaker;
        final Bulkhead<Outcome> bulkhead;
        private final AtomicInteger held = new AtomicInteger();
        /** Whether the last claim filled this receiver's room, so more of its deliveries are probably due. */
        private final AtomicBoolean moreDue = new AtomicBoolean();

        Receiver(String key, CircuitBreaker<Outcome> breaker, Bulkhead<Outcome> bulkhead) {
            this.key = key;
            this.breaker = breaker;
            this.bulkhead = bulkhead;
        }

        /**
         * How many more deliveries this node should claim for it: a short queue behind its attempt slots when it
         * is healthy, a single probe when its circuit is half-open, none while it is open.
         */
        int room(int perReceiver) {
            int depth = breaker.isClosed() ? perReceiver * QUEUE_PER_SLOT : breaker.isOpen() ? 0 : 1;
            return Math.max(0, depth - held.get());
        }

        void hold() {
            held.incrementAndGet();
        }

        /** Records whether a claim took as many of its deliveries as there was room for. */
        void claimed(boolean filledRoom) {
            moreDue.set(filledRoom);
        }

        /**
         * Lets one delivery go. Returns true once per claim that filled its room, when its local queue has fallen
         * to half or below: time to claim more. Not on a queue falling to exactly half, since a claim that leaves
         * it at half or less (the queue drained while the claim ran) would never pass that mark again and the loop
         * would sleep until the poll with deliveries due.
         */
        boolean letGo(int perReceiver) {
            return held.decrementAndGet() <= perReceiver * QUEUE_PER_SLOT / 2 && moreDue.compareAndSet(true, false);
        }

        /**
         * Asked once a claim that filled this receiver's room has handed its deliveries on. True (once) when the
         * local queue is already at half or below and the receiver has room: what it held drained while the claim's
         * statement ran, so no {@link #letGo} may be left to wake the loop, and it must claim again now. A claim that
         * found the queue full took nothing for it, and if every held delivery was answered before the claim
         * recorded that, the loop slept until the poll with deliveries due.
         */
        boolean claimAgainNow(int perReceiver) {
            return room(perReceiver) > 0 && held.get() <= perReceiver * QUEUE_PER_SLOT / 2
                    && moreDue.compareAndSet(true, false);
        }
    }

    /**
     * How many more deliveries to claim for each subscription whose receiver has less room than an idle one (some
     * of its deliveries held, or its circuit not closed); the claim and the fan-out give every other subscription
     * an idle receiver's room. Only these go into their statements: a node learns the receiver of every
     * subscription it has delivered for and never forgets it, and binding them all made each statement carry an id
     * per subscription ever seen.
     */
    static Map<UUID, Integer> roomBelowIdle(Map<UUID, Receiver> receiverOfSubscription, int perReceiver) {
        int idle = perReceiver * QUEUE_PER_SLOT;
        Map<UUID, Integer> room = new HashMap<>();
        receiverOfSubscription.forEach((subscription, receiver) -> {
            int left = receiver.room(perReceiver);
            if (left < idle) {
                room.put(subscription, left);
            }
        });
        return room;
    }

    private final WebhookSettings settings;
    private final Map<String, Receiver> byKey = new ConcurrentHashMap<>();

    Receivers(WebhookSettings settings) {
        this.settings = settings;
    }

    Receiver of(URI url) {
        return byKey.computeIfAbsent(key(url), key -> new Receiver(key,
                CircuitBreaker.<Outcome>builder()
                        .handleResultIf(Outcome::receiverFailing)
                        .withFailureThreshold(settings.breakerFailures())
                        .withDelay(settings.breakerDelay())
                        .withSuccessThreshold(1)
                        .build(),
                Bulkhead.<Outcome>of(settings.perReceiver())));
    }

    static String key(URI url) {
        String scheme = url.getScheme().toLowerCase(Locale.ROOT);
        int port = url.getPort() != -1 ? url.getPort() : scheme.equals("https") ? 443 : 80;
        return scheme + "://" + url.getHost().toLowerCase(Locale.ROOT) + ":" + port;
    }
}
