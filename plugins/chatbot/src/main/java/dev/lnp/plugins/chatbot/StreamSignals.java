package dev.lnp.plugins.chatbot;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Wakes the open streams of a session when one of its events is written, on any node: {@code chatbot.events} rows
 * are inserted with {@code pg_notify('chatbot_events', <session id>)} in the same transaction, and this node listens
 * on that channel ({@code dev.lnp.api.events.Notifications}). A stream still re-reads its events after a while
 * without notification (a notification lost during a database outage), so nothing depends on them arriving.
 */
final class StreamSignals {

    static final String CHANNEL = "chatbot_events";

    private final Map<UUID, Set<Semaphore>> waiting = new ConcurrentHashMap<>();

    /** A notification: a session id, or null ("look again", after a reconnect). */
    void wake(String payload) {
        if (payload == null || payload.isEmpty()) {
            waiting.values().forEach(set -> set.forEach(Semaphore::release));
            return;
        }
        try {
            Set<Semaphore> set = waiting.get(UUID.fromString(payload));
            if (set != null) {
                set.forEach(Semaphore::release);
            }
        } catch (IllegalArgumentException e) {
            // not ours
        }
    }

    /** A stream's doorbell: register before reading, so a wake between the read and the wait is not lost. */
    Bell register(UUID sessionId) {
        Semaphore s = new Semaphore(0);
        waiting.computeIfAbsent(sessionId, k -> ConcurrentHashMap.newKeySet()).add(s);
        return new Bell(sessionId, s);
    }

    final class Bell implements AutoCloseable {
        private final UUID sessionId;
        private final Semaphore semaphore;

        private Bell(UUID sessionId, Semaphore semaphore) {
            this.sessionId = sessionId;
            this.semaphore = semaphore;
        }

        /** Forgets earlier rings: call right before reading the events. */
        void reset() {
            semaphore.drainPermits();
        }

        /** Waits until rung or {@code max} passed. */
        void await(Duration max) throws InterruptedException {
            semaphore.tryAcquire(Math.max(1, max.toMillis()), TimeUnit.MILLISECONDS);
        }

        @Override
        public void close() {
            Set<Semaphore> set = waiting.get(sessionId);
            if (set != null) {
                set.remove(semaphore);
                if (set.isEmpty()) {
                    waiting.remove(sessionId, set);
                }
            }
        }
    }
}
