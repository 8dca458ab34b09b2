package dev.lnp.database.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One record the database refuses must not take the rest of its batch with it. */
class BatchedWriterTest {

    /** Refuses any batch holding "bad", as PostgreSQL refuses a batch with a NUL in a text column. */
    private static final class Store {
        final List<String> written = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        int statements;

        void write(List<String> batch) {
            started.countDown();
            try {
                release.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            statements++;
            if (batch.contains("bad")) {
                throw new IllegalStateException(new SQLException("invalid byte sequence for encoding UTF8: 0x00",
                        "22021"));
            }
            written.addAll(batch);
        }
    }

    @Test
    void aRefusedRecordIsTheOnlyOneDropped() throws Exception {
        Store store = new Store();
        BatchedWriter<String> writer = new BatchedWriter<>("test", store::write);
        writer.add("first");
        assertTrue(store.started.await(5, TimeUnit.SECONDS));
        // While the first statement waits, a batch of good records with one bad one in the middle queues up.
        for (int i = 0; i < 50; i++) {
            writer.add(i == 25 ? "bad" : "good-" + i);
        }
        store.release.countDown();
        writer.close();
        assertEquals(50, store.written.size(), "first and the 49 good records");
        assertTrue(store.written.contains("good-24") && store.written.contains("good-26"), store.written.toString());
        assertEquals(1, writer.dropped());
    }

    @Test
    void anUnreachableDatabaseDropsTheBatchWithoutTryingEachRecord() {
        List<Integer> sizes = Collections.synchronizedList(new ArrayList<>());
        BatchedWriter<String> writer = new BatchedWriter<>("test", batch -> {
            sizes.add(batch.size());
            throw new IllegalStateException(new java.sql.SQLTransientConnectionException("pool timed out"));
        });
        for (int i = 0; i < 10; i++) {
            writer.add("r" + i);
        }
        writer.close();
        assertEquals(10, writer.dropped());
        assertEquals(10, sizes.stream().mapToInt(Integer::intValue).sum(), "each record was tried once: " + sizes);
    }

    @Test
    void recordsArrivingWithinTheLingerShareOneStatement() throws Exception {
        List<List<String>> batches = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch written = new CountDownLatch(1);
        BatchedWriter<String> writer = new BatchedWriter<>("test", batch -> {
            batches.add(List.copyOf(batch));
            written.countDown();
        }, java.time.Duration.ofMillis(300));
        writer.add("a");
        Thread.sleep(100);
        writer.add("b");
        writer.add("c");
        assertTrue(written.await(5, TimeUnit.SECONDS));
        writer.add("d");
        writer.close();
        assertEquals(List.of(List.of("a", "b", "c"), List.of("d")), batches);
    }

    @Test
    void closingWritesWhatIsQueuedWithoutWaitingForTheLinger() throws InterruptedException {
        List<String> written = Collections.synchronizedList(new ArrayList<>());
        BatchedWriter<String> writer = new BatchedWriter<>("test", written::addAll, java.time.Duration.ofSeconds(30));
        writer.add("a");
        writer.add("b");
        Thread.sleep(100); // the writer has taken them and waits for more
        long start = System.nanoTime();
        writer.close();
        assertEquals(List.of("a", "b"), written);
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "close waited for the linger");
    }
}
