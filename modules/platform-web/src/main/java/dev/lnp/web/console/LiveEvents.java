package dev.lnp.web.console;

import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.locks.LockSupport;
import org.jdbi.v3.core.Jdbi;

/**
 * Which events happened in which workspace, for the open pages that refresh themselves
 * ({@link dev.lnp.api.pages.PageRoute#liveOn}). One reader per node follows the outbox, the events every node's
 * writes leave, once a second and only while a page is open, and tells each watcher of the event's workspace whose
 * names match. A watcher learns that something changed, never what: the page asks for itself again.
 */
final class LiveEvents implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LiveEvents.class.getName());
    static final long INTERVAL_MILLIS = 1000;

    /**
     * An open page: its workspace, the event names it follows ({@code crm.deal.*} for a prefix), when it began
     * reading (the outbox position: the events up to it are on the page already) and its signal.
     */
    record Watcher(UUID workspaceId, List<String> eventNames, long since, Runnable changed) {
        boolean follows(String eventName) {
            for (String name : eventNames) {
                if (name.endsWith(".*") ? eventName.startsWith(name.substring(0, name.length() - 1))
                        : eventName.equals(name)) {
                    return true;
                }
            }
            return false;
        }
    }

    private record Happened(long seq, UUID workspaceId, String eventName) {
    }

    private final Jdbi jdbi;
    private final Set<Watcher> watchers = new CopyOnWriteArraySet<>();
    private volatile Thread reader;
    private volatile boolean closed;
    private long last = -1;
    /** Sequence numbers told already: a transaction commits after later numbers were read, so a window is read again. */
    private final java.util.LinkedHashSet<Long> told = new java.util.LinkedHashSet<>();
    private static final int LATE_WINDOW = 500;

    LiveEvents(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /** Starts telling {@code watcher}; closing the result stops it. The reader starts with the first watcher. */
    AutoCloseable watch(Watcher watcher) {
        watchers.add(watcher);
        synchronized (this) {
            if (reader == null && !closed) {
                reader = Thread.ofVirtual().name("live-events").start(this::follow);
            }
        }
        LockSupport.unpark(reader);
        return () -> watchers.remove(watcher);
    }

    /** The outbox's position now: the highest sequence number of an event committed so far. */
    long position() {
        return jdbi.withHandle(h -> h.createQuery("SELECT COALESCE(max(seq), 0) FROM lnp_core.outbox")
                .mapTo(Long.class).one());
    }

    private void follow() {
        while (!closed) {
            if (watchers.isEmpty()) {
                last = -1;
                told.clear();
                LockSupport.parkNanos(INTERVAL_MILLIS * 1_000_000);
                continue;
            }
            try {
                readNew();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "Live pages could not read the outbox; trying again", e);
            }
            LockSupport.parkNanos(INTERVAL_MILLIS * 1_000_000);
        }
    }

    private void readNew() {
        boolean starting = last < 0;
        if (starting) {
            last = position();
        }
        List<Happened> happened = jdbi.withHandle(h -> h.createQuery("""
                        SELECT seq, workspace_id, event_name FROM lnp_core.outbox WHERE seq > :from ORDER BY seq LIMIT 1000
                        """)
                .bind("from", last - LATE_WINDOW)
                .map((rs, ctx) -> new Happened(rs.getLong("seq"), rs.getObject("workspace_id", UUID.class),
                        rs.getString("event_name")))
                .list());
        for (Happened event : happened) {
            if (!told.add(event.seq())) {
                continue;
            }
            if (told.size() > 4 * LATE_WINDOW) {
                told.remove(told.iterator().next());
            }
            last = Math.max(last, event.seq());
            if (starting) {
                continue;
            }
            for (Watcher watcher : watchers) {
                if (watcher.workspaceId().equals(event.workspaceId()) && watcher.follows(event.eventName())
                        && event.seq() > watcher.since()) {
                    watcher.changed().run();
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        Thread running = reader;
        if (running != null) {
            LockSupport.unpark(running);
        }
    }
}
