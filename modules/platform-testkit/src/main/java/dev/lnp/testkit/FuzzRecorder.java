package dev.lnp.testkit;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What the fuzz tests share (the pipeline's and the MCP endpoint's, and a plugin's own): the hostile JSON values
 * every generator mixes in, a tally of the answers, and a capture of every log line written meanwhile, so that a
 * run can assert no key or secret reached the log. Start it before the run, close it after, then assert.
 */
public final class FuzzRecorder implements AutoCloseable {

    /**
     * JSON values that break parsers and validators: NULs, numbers that overflow to infinity or
     * underflow, the first integer past {@code long}, an impossible date, a malformed and a well-formed UUID.
     */
    public static final List<String> HOSTILE_SCALARS = List.of("\"\\u0000\"", "\"a\\u0000\"", "1e400", "-1e400",
            "1e-400", "9223372036854775808", "0", "-1", "true", "false", "null", "\"2026-02-30\"", "\"not-a-uuid\"",
            "\"" + java.util.UUID.randomUUID() + "\"");

    private static final int MAX_CAPTURED = 5_000_000;

    private final StringBuilder logged = new StringBuilder();
    private final AtomicLong sent = new AtomicLong();
    private final Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
    private final long started = System.nanoTime();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            synchronized (logged) {
                if (logged.length() < MAX_CAPTURED) {
                    logged.append(record.getMessage()).append(' ').append(record.getThrown()).append('\n');
                }
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private FuzzRecorder() {
    }

    /** Starts capturing every log record of the JVM (the root logger's handlers). */
    public static FuzzRecorder start() {
        FuzzRecorder recorder = new FuzzRecorder();
        Logger.getLogger("").addHandler(recorder.capture);
        return recorder;
    }

    /** Counts one answer with its status. */
    public void answered(int status) {
        sent.incrementAndGet();
        statuses.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
    }

    /** How many answers were counted, and of which statuses, in how long: for the run's printed figures. */
    public String summary() {
        long seconds = Math.max(1, (System.nanoTime() - started) / 1_000_000_000);
        Map<Integer, Long> byStatus = new TreeMap<>();
        statuses.forEach((status, count) -> byStatus.put(status, count.get()));
        return sent.get() + " in " + seconds + " s, statuses " + byStatus;
    }

    /** Fails when any of {@code secrets} (a key, a part of one) appears in a captured log line. */
    public void assertNeverLogged(String... secrets) {
        synchronized (logged) {
            for (String secret : secrets) {
                assertFalse(logged.indexOf(secret) >= 0, "a secret reached the log (" + secret.length()
                        + " characters)");
            }
        }
    }

    /** Stops capturing. */
    @Override
    public void close() {
        Logger.getLogger("").removeHandler(capture);
    }
}
