package dev.lnp.database.batch;

import dev.lnp.database.Database;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Writes records in batches on one background thread, so that requests only enqueue. When the queue is full
 * (the database is down for long) records are dropped and counted rather than blocking requests; on close,
 * what is queued is written first.
 *
 * <p>A batch gathers for {@link #LINGER} after its first record before it is written. Every batch is a
 * statement and a commit (a WAL flush) in PostgreSQL; without the wait, a busy node wrote a batch of about four
 * rows every few milliseconds, which made the audit a fifth of the transactions a read costs the database. The
 * rows appear that much later, and a crash loses at most what was queued, as before.
 */
public final class BatchedWriter<E> implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(BatchedWriter.class.getName());
    private static final int CAPACITY = 100_000;
    private static final int BATCH = 1000;
    /** How long a batch gathers after its first record. */
    static final Duration LINGER = Duration.ofMillis(20);
    private static final long CLOSE_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final String name;
    private final Consumer<List<E>> write;
    private final LinkedBlockingQueue<E> queue = new LinkedBlockingQueue<>(CAPACITY);
    private final AtomicLong dropped = new AtomicLong();
    private final long lingerNanos;
    private final Thread writer;
    private volatile boolean running = true;

    public BatchedWriter(String name, Consumer<List<E>> write) {
        this(name, write, LINGER);
    }

    public BatchedWriter(String name, Consumer<List<E>> write, Duration linger) {
        this.name = name;
        this.write = write;
        this.lingerNanos = linger.toNanos();
        this.writer = Thread.ofVirtual().name("lnp-" + name + "-writer").start(this::run);
    }

    public void add(E record) {
        if (!queue.offer(record)) {
            dropped.incrementAndGet();
        }
    }

    private void run() {
        List<E> batch = new ArrayList<>(BATCH);
        while (running || !queue.isEmpty()) {
            try {
                // Waits in short slices: a close is seen within one, so a stop does not wait out a long poll
                // (an interrupt would end it sooner but closes a database connection the writer is using).
                E first = queue.poll(CLOSE_CHECK_NANOS, TimeUnit.NANOSECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                gather(batch, System.nanoTime() + lingerNanos);
                writeBatch(batch);
            } catch (InterruptedException e) {
                running = false;
            }
            batch.clear();
        }
    }

    /**
     * Sleeps until the deadline, then adds what arrived (up to a full batch); once closing (or interrupted), only
     * what is already queued, and the batch is written all the same. It sleeps rather than waiting on the queue:
     * a waiting writer is woken by every record a request adds, which scheduled the writer's thread once per
     * request; asleep, it is woken once per batch.
     */
    private void gather(List<E> batch, long deadline) {
        long left;
        while (running && (left = deadline - System.nanoTime()) > 0) {
            try {
                // In slices, so that a close is seen within one: it ends the wait and writes the batch at once.
                Thread.sleep(Duration.ofNanos(Math.min(left, CLOSE_CHECK_NANOS)));
            } catch (InterruptedException e) {
                running = false;
            }
        }
        queue.drainTo(batch, BATCH - batch.size());
    }

    /**
     * Writes the batch in one statement; when the database refuses it for its content (not for being unreachable),
     * writes the records one by one, so that a record the database cannot take is the only one lost.
     */
    private void writeBatch(List<E> batch) {
        try {
            write.accept(batch);
        } catch (RuntimeException e) {
            if (batch.size() == 1 || Database.isUnreachable(e)) {
                // A connection failure: retrying record by record would only wait for the pool once per record.
                dropped(batch.size(), e);
                return;
            }
            for (E record : batch) {
                try {
                    write.accept(List.of(record));
                } catch (RuntimeException single) {
                    dropped(1, single);
                }
            }
        }
    }

    private void dropped(int count, RuntimeException cause) {
        dropped.addAndGet(count);
        LOG.log(Level.WARNING, "Could not write " + count + " " + name + " record(s); dropped: " + cause);
    }

    /** Records waiting to be written (not those of the batch being written). */
    public int queued() {
        return queue.size();
    }

    /** Records dropped since start: refused by the database, or arriving while the queue was full. */
    public long dropped() {
        return dropped.get();
    }

    @Override
    public void close() {
        running = false;
        try {
            writer.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (dropped.get() > 0) {
            LOG.log(Level.WARNING, "{0} {1} records were dropped (the database refused or could not be reached)",
                    dropped.get(), name);
        }
    }
}
