package dev.lnp.webhooks;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Records finished attempts in batches (a group commit): one writer takes every attempt that finished while the
 * previous batch was being written and records them with one statement and one commit
 * ({@link DeliveryQueue#recordAll}). Nothing waits for a batch to fill: an attempt that finishes while the writer
 * is idle is written at once, alone; under a burst the batches grow by themselves with the commit latency. Each
 * attempt's future completes only after its batch has committed, so a delivery is never reported done (or let go
 * by its node) before its outcome is durable.
 */
final class AttemptRecorder implements AutoCloseable {

    private record Waiting(DeliveryQueue.Finished finished, CompletableFuture<Boolean> held) {}

    private final DeliveryQueue queue;
    private final Clock clock;
    private final Duration disableAfter;
    private final int maxBatch;
    private final LinkedBlockingQueue<Waiting> waiting = new LinkedBlockingQueue<>();
    private final Thread writer;
    private volatile boolean running = true;

    AttemptRecorder(DeliveryQueue queue, Clock clock, Duration disableAfter, int maxBatch) {
        this.queue = queue;
        this.clock = clock;
        this.disableAfter = disableAfter;
        this.maxBatch = maxBatch;
        this.writer = Thread.ofVirtual().name("lnp-webhook-recorder").start(this::run);
    }

    /**
     * Queues a finished attempt for the next batch. The future completes with whether the lease was still held
     * once the batch has committed, or exceptionally when the batch could not be written (the caller then records
     * the attempt on its own, as before batches existed).
     */
    CompletableFuture<Boolean> record(ClaimedDelivery delivery, DeliveryQueue.Attempt attempt) {
        var held = new CompletableFuture<Boolean>();
        if (!running) {
            held.completeExceptionally(new IllegalStateException("the webhook attempt recorder is closed"));
            return held;
        }
        waiting.add(new Waiting(new DeliveryQueue.Finished(delivery, attempt), held));
        return held;
    }

    private void run() {
        List<Waiting> batch = new ArrayList<>(maxBatch);
        while (running || !waiting.isEmpty()) {
            try {
                Waiting first = waiting.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                waiting.drainTo(batch, maxBatch - 1);
                write(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } finally {
                batch.clear();
            }
        }
        // Anything left (the writer was interrupted): its callers record it on their own.
        Waiting left;
        while ((left = waiting.poll()) != null) {
            left.held().completeExceptionally(new IllegalStateException("the webhook attempt recorder stopped"));
        }
    }

    private void write(List<Waiting> batch) {
        try {
            Set<UUID> held = queue.recordAll(batch.stream().map(Waiting::finished).toList(), clock.instant(),
                    disableAfter);
            for (Waiting w : batch) {
                w.held().complete(held.contains(w.finished().delivery().id()));
            }
        } catch (RuntimeException e) {
            // One bad row or a lost connection fails the whole batch: each attempt is then recorded by its own
            // thread, retried as long as its lease allows, so one delivery cannot hold up the others.
            for (Waiting w : batch) {
                w.held().completeExceptionally(e);
            }
        }
    }

    /** Writes what is queued, then stops. Call after the attempts that use it have finished. */
    @Override
    public void close() {
        running = false;
        try {
            writer.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (writer.isAlive()) {
            writer.interrupt();
        }
    }
}
