package dev.lnp.core.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.events.DeliveredEvent;
import dev.lnp.core.plugins.PluginRegistry;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * Delivers outbox events to in-process subscribers ({@link dev.lnp.api.Registrar#subscribe}), at least once. Each
 * subscriber has a cursor (the last outbox {@code seq} handled) in {@code lnp_core.event_cursors}, created at the
 * outbox's end when the subscriber is first seen. One virtual thread per node polls; a cursor row is locked
 * ({@code FOR UPDATE SKIP LOCKED}) while its batch is handled, so on several nodes one delivers at a time. The
 * cursor advances after each handled event; a handler that throws is retried from that event on the next poll.
 *
 * <p>Sequence numbers are taken at insert, not at commit, so a slow transaction can commit a lower seq after a
 * higher one was read: each poll also looks back over the last {@link #LOOK_BACK} for rows below the cursor that
 * were not seen (kept in memory per node), and handlers dedupe on the event id.
 */
public final class EventSubscriptions implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(EventSubscriptions.class.getName());
    private static final Duration LOOK_BACK = Duration.ofSeconds(30);
    private static final int BATCH = 100;

    private final Jdbi jdbi;
    private final List<PluginRegistry.Subscription> subscriptions;
    private final Duration interval;
    private final Thread worker;
    private final java.util.Map<String, java.util.Set<UUID>> recent = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile boolean running = true;
    /** Wakes the loop from its pause at close; a delivery under way is never interrupted (see {@link #close}). */
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
    private final String node = UUID.randomUUID().toString();

    private EventSubscriptions(Jdbi jdbi, List<PluginRegistry.Subscription> subscriptions, Duration interval) {
        this.jdbi = jdbi;
        this.subscriptions = subscriptions;
        this.interval = interval;
        for (var s : subscriptions) {
            jdbi.useHandle(h -> h.createUpdate("""
                            INSERT INTO lnp_core.event_cursors (subscriber, last_seq)
                            VALUES (:s, COALESCE((SELECT max(seq) FROM lnp_core.outbox), 0))
                            ON CONFLICT (subscriber) DO NOTHING""").bind("s", s.subscriber()).execute());
        }
        this.worker = subscriptions.isEmpty() ? null
                : Thread.ofVirtual().name("lnp-event-subscriptions").start(this::loop);
    }

    public static EventSubscriptions start(Jdbi jdbi, PluginRegistry registry, Duration interval) {
        return new EventSubscriptions(jdbi, registry.subscriptions(), interval);
    }

    private void loop() {
        while (running) {
            for (var s : subscriptions) {
                try {
                    deliver(s);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "event subscription " + s.subscriber() + ": " + e);
                }
            }
            try {
                if (stopped.await(interval.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * One poll for one subscriber. The cursor row is held (a short lease, committed) while the batch is handled, so
     * that handlers run outside any transaction of this class (they open workspace transactions of their own).
     */
    public void deliver(PluginRegistry.Subscription s) {
        java.util.Set<UUID> seen = recent.computeIfAbsent(s.subscriber(),
                k -> java.util.concurrent.ConcurrentHashMap.newKeySet());
        Long cursor = jdbi.inTransaction(h -> h.createQuery("""
                        UPDATE lnp_core.event_cursors SET held_by = :node, held_until = now() + interval '60 seconds'
                         WHERE subscriber = :s AND (held_until IS NULL OR held_until < now() OR held_by = :node)
                        RETURNING last_seq""")
                .bind("s", s.subscriber()).bind("node", node).mapTo(Long.class).findOne().orElse(null));
        if (cursor == null) {
            return;
        }
        long last = cursor;
        try {
            var rows = jdbi.withHandle(h -> h.createQuery("""
                            SELECT id, seq, workspace_id, event_name, payload::text, occurred_at FROM lnp_core.outbox
                             WHERE event_name = :name
                               AND (seq > :cursor OR occurred_at > now() - make_interval(secs => :lookBack))
                             ORDER BY seq LIMIT :batch""")
                    .bind("name", s.eventName()).bind("cursor", cursor).bind("lookBack", (double) LOOK_BACK.toSeconds())
                    .bind("batch", BATCH)
                    .map((rs, ctx) -> new Row(rs.getObject(1, UUID.class), rs.getLong(2),
                            rs.getObject(3, UUID.class), rs.getString(4), rs.getString(5),
                            rs.getTimestamp(6).toInstant()))
                    .list());
            for (Row row : rows) {
                if (row.seq() <= cursor && seen.contains(row.id())) {
                    continue;
                }
                try {
                    JsonNode payload = Json.mapper().readTree(row.payload());
                    s.handler().handle(new DeliveredEvent(row.id(), row.workspaceId(), row.name(), payload,
                            row.occurredAt()));
                } catch (Exception e) {
                    LOG.log(Level.WARNING, "event subscription " + s.subscriber() + " failed on event " + row.id()
                            + "; it comes again: " + e);
                    break;
                }
                seen.add(row.id());
                last = Math.max(last, row.seq());
            }
            if (seen.size() > 10_000) {
                seen.clear();
            }
        } finally {
            long reached = last;
            jdbi.useTransaction(h -> h.createUpdate("""
                            UPDATE lnp_core.event_cursors SET last_seq = GREATEST(last_seq, :seq), held_by = NULL,
                                   held_until = NULL, updated_at = now()
                             WHERE subscriber = :s AND held_by = :node""")
                    .bind("seq", reached).bind("s", s.subscriber()).bind("node", node).execute());
        }
    }

    private record Row(UUID id, long seq, UUID workspaceId, String name, String payload, java.time.Instant occurredAt) {
    }

    /**
     * Lets a delivery under way finish (up to 5 s) before the pool closes. Interrupting it closed its database
     * connection mid-statement (a broken connection, logged with its stack) and left its cursor held for the
     * lease's 60 s, so a restarted node's subscribers waited that long; only a delivery still running after 5 s is
     * interrupted.
     */
    @Override
    public void close() {
        running = false;
        stopped.countDown();
        if (worker != null) {
            try {
                if (!worker.join(Duration.ofSeconds(5))) {
                    worker.interrupt();
                    worker.join(Duration.ofSeconds(1));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
