package dev.lnp.core.limits;

import java.lang.System.Logger.Level;
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
 */
final class BatchedWriter<E> implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(BatchedWriter.class.getName());
    private static final int CAPACITY = 100_000;
    private static final int BATCH = 1000;

    private final String name;
    private final Consumer<List<E>> write;
    private final LinkedBlockingQueue<E> queue = new LinkedBlockingQueue<>(CAPACITY);
    private final AtomicLong dropped = new AtomicLong();
    private final Thread writer;
    private volatile boolean running = true;

    BatchedWriter(String name, Consumer<List<E>> write) {
        this.name = name;
        this.write = write;
        this.writer = Thread.ofVirtual().name("lnp-" + name + "-writer").start(this::run);
    }

    void add(E record) {
        if (!queue.offer(record)) {
            dropped.incrementAndGet();
        }
    }

    private void run() {
        List<E> batch = new ArrayList<>(BATCH);
        while (running || !queue.isEmpty()) {
            try {
                E first = queue.poll(500, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, BATCH - 1);
                write.accept(batch);
            } catch (InterruptedException e) {
                running = false;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Could not write " + batch.size() + " " + name + " records; dropped", e);
            }
            batch.clear();
        }
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
            LOG.log(Level.WARNING, "{0} {1} records were dropped while the database was unavailable", dropped.get(),
                    name);
        }
    }
}
