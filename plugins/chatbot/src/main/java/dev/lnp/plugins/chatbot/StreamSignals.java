package dev.lnp.plugins.chatbot;

import dev.lnp.api.http.ApiProblem;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Wakes the open streams of a session when one of its events is written, on any node: {@code chatbot.events} rows
 * are inserted with {@code pg_notify('chatbot_events', <session id>)} in the same transaction, and this node listens
 * on that channel ({@code dev.lnp.api.internal.events.Notifications}). A stream still re-reads its events after a while
 * without notification (a notification lost during a database outage), so nothing depends on them arriving.
 */
final class StreamSignals {

    static final String CHANNEL = "chatbot_events";

    private final Map<UUID, Set<Semaphore>> waiting = new ConcurrentHashMap<>();
    private final Map<String, Integer> perAddress = new ConcurrentHashMap<>();
    private int open;

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

    /**
     * A stream's doorbell, counted against the node's stream limits: a conversation, a client address and the node
     * each hold at most so many open streams, because each one is a connection held open for as long as its token
     * lives. Register before reading, so a wake between the read and the wait is not lost; close when the stream
     * ends. A dead connection is noticed at its next heartbeat, which is why a refusal asks to retry after one.
     *
     * @throws ApiProblem 429 {@code too_many_streams} over the session's or the address's limit, 503
     *                    {@code streams_unavailable} when the node holds its most
     */
    synchronized Bell open(UUID sessionId, String address, ChatSettings limits) {
        String retry = String.valueOf(Math.max(1, limits.heartbeat().toSeconds()));
        if (open >= limits.openStreams()) {
            throw new ApiProblem(503, "streams_unavailable", "Service Unavailable", "This server holds as many "
                    + "chat streams as it may (" + limits.openStreams() + "). Try again in " + retry + " seconds.",
                    List.of(), Map.of("Retry-After", retry));
        }
        if (waiting.getOrDefault(sessionId, Set.of()).size() >= limits.streamsPerSession()) {
            throw tooMany("this conversation", limits.streamsPerSession(), retry);
        }
        if (perAddress.getOrDefault(address, 0) >= limits.streamsPerAddress()) {
            throw tooMany("this address", limits.streamsPerAddress(), retry);
        }
        open++;
        perAddress.merge(address, 1, Integer::sum);
        Semaphore s = new Semaphore(0);
        waiting.computeIfAbsent(sessionId, k -> ConcurrentHashMap.newKeySet()).add(s);
        return new Bell(sessionId, address, s);
    }

    /** Open streams on this node. */
    synchronized int open() {
        return open;
    }

    private synchronized void closed(Bell bell) {
        Set<Semaphore> set = waiting.get(bell.sessionId);
        if (set != null && set.remove(bell.semaphore)) {
            if (set.isEmpty()) {
                waiting.remove(bell.sessionId, set);
            }
            open--;
            perAddress.computeIfPresent(bell.address, (k, n) -> n > 1 ? n - 1 : null);
        }
    }

    private static ApiProblem tooMany(String what, int limit, String retry) {
        return new ApiProblem(429, "too_many_streams", "Too Many Requests", "Too many open chat streams from "
                + what + ": at most " + limit + ". Close one, or try again in " + retry + " seconds.", List.of(),
                Map.of("Retry-After", retry));
    }

    final class Bell implements AutoCloseable {
        private final UUID sessionId;
        private final String address;
        private final Semaphore semaphore;

        private Bell(UUID sessionId, String address, Semaphore semaphore) {
            this.sessionId = sessionId;
            this.address = address;
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
            closed(this);
        }
    }
}
