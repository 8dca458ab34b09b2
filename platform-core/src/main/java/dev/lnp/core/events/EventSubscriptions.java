package dev.lnp.core.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.internal.events.DeliveredEvent;
import dev.lnp.core.plugins.PluginRegistry;
import java.lang.System.Logger.Level;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * Delivers outbox events to in-process subscribers ({@link dev.lnp.api.internal.events.Subscriptions#subscribe}), at least once. Each
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
    private final java.util.Map<String, LookBack> lookBacks = new java.util.concurrent.ConcurrentHashMap<>();
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
     * First the late rows (below the cursor, within the look-back, not yet seen by this node), then the next batch
     * after the cursor, each read through {@code outbox_event_seq} ({@code event_name, seq}): a poll reads only its
     * own event's rows, never the whole outbox.
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
            List<Row> rows = new ArrayList<>(lateRows(s, cursor, seen));
            rows.addAll(jdbi.withHandle(h -> h.createQuery("SELECT " + COLUMNS + """
                             FROM lnp_core.outbox WHERE event_name = :name AND seq > :cursor
                            ORDER BY seq LIMIT :batch""")
                    .bind("name", s.eventName()).bind("cursor", cursor).bind("batch", BATCH)
                    .map(EventSubscriptions::row).list()));
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

    private static final String COLUMNS = "id, seq, workspace_id, event_name, payload::text, occurred_at";

    private static Row row(ResultSet rs, StatementContext ctx) throws SQLException {
        return new Row(rs.getObject(1, UUID.class), rs.getLong(2), rs.getObject(3, UUID.class), rs.getString(4),
                rs.getString(5), rs.getTimestamp(6).toInstant());
    }

    /**
     * The rows at or below the cursor that occurred within the look-back and this node has not handled: a
     * transaction that took its seq before a row the cursor already passed, and committed after it. Only ids are
     * read for the window (its rows are nearly all seen); the unseen ones are then read whole. The window starts at
     * the cursor as it stood a look-back ago ({@link LookBack}), so the scan covers this event's last half minute,
     * not every row of it below the cursor.
     */
    private List<Row> lateRows(PluginRegistry.Subscription s, long cursor, Set<UUID> seen) {
        LookBack lookBack = lookBacks.get(s.subscriber());
        if (lookBack == null) {
            // The start's floor is a statement: read outside the map's compute, which must not block.
            LookBack first = new LookBack(startFloor(cursor));
            LookBack raced = lookBacks.putIfAbsent(s.subscriber(), first);
            lookBack = raced != null ? raced : first;
        }
        long floor = lookBack.floor(System.nanoTime(), cursor);
        if (floor >= cursor) {
            return List.of();
        }
        List<UUID> unseen = jdbi.withHandle(h -> h.createQuery("""
                        SELECT id FROM lnp_core.outbox
                         WHERE event_name = :name AND seq > :floor AND seq <= :cursor
                           AND occurred_at > now() - make_interval(secs => :lookBack)
                         ORDER BY seq""")
                .bind("name", s.eventName()).bind("floor", floor).bind("cursor", cursor)
                .bind("lookBack", (double) LOOK_BACK.toSeconds())
                .mapTo(UUID.class).list()).stream().filter(id -> !seen.contains(id)).toList();
        if (unseen.isEmpty()) {
            return List.of();
        }
        return jdbi.withHandle(h -> h.createQuery("SELECT " + COLUMNS
                        + " FROM lnp_core.outbox WHERE id = ANY(:ids) ORDER BY seq")
                .bindArray("ids", UUID.class, unseen).map(EventSubscriptions::row).list());
    }

    /**
     * Where a node's first look-back starts: the newest row at or below the cursor that occurred before the
     * look-back, found walking the outbox's seq index back from the cursor (about a look-back's worth of rows, once
     * per subscriber and start); 0 when there is none.
     */
    private long startFloor(long cursor) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT seq FROM lnp_core.outbox
                         WHERE seq <= :cursor AND occurred_at <= now() - make_interval(secs => :lookBack)
                         ORDER BY seq DESC LIMIT 1""")
                .bind("cursor", cursor).bind("lookBack", (double) LOOK_BACK.toSeconds())
                .mapTo(Long.class).findOne().orElse(0L));
    }

    /**
     * The cursor as it stood one look-back ago, from the cursors this node's polls read (at most one kept per
     * second of the look-back).
     */
    static final class LookBack {
        private final ArrayDeque<long[]> polls = new ArrayDeque<>();
        private long floor;

        LookBack(long startFloor) {
            this.floor = startFloor;
        }

        synchronized long floor(long nowNanos, long cursor) {
            long horizon = nowNanos - LOOK_BACK.toNanos();
            while (!polls.isEmpty() && polls.peekFirst()[0] <= horizon) {
                floor = polls.pollFirst()[1];
            }
            if (polls.isEmpty() || nowNanos - polls.peekLast()[0] >= 1_000_000_000L) {
                polls.addLast(new long[] {nowNanos, cursor});
            }
            return floor;
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
