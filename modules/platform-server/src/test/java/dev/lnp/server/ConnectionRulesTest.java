package dev.lnp.server;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.helidon.webserver.http1.Http1Config;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A connection calls the HTTP/1.1 configuration's combined receive listener, which Helidon 4.5 makes call nothing
 * when it is given several: what a connection calls must arm, and disarm, the read deadline.
 */
class ConnectionRulesTest {

    private static final Duration TIMEOUT = Duration.ofMillis(100);
    /** Far past the timeout and the watcher's sweep. */
    private static final long WAIT_MILLIS = 2_000;

    @Test
    void aRequestLineArmsTheReadDeadlineThroughTheListenerConnectionsCall() {
        try (ReadDeadlines deadlines = new ReadDeadlines(TIMEOUT)) {
            Http1Config http1 = ConnectionRules.http1(deadlines);
            assertEquals(1, http1.receiveListeners().size(), "exactly one receive listener");

            http1.compositeReceiveListener().prologue(null, null);
            assertThrows(InterruptedException.class, () -> Thread.sleep(WAIT_MILLIS),
                    "the deadline passed while the headers were read: the reading thread is interrupted");
        }
    }

    @Test
    void completeHeadersDisarmTheReadDeadline() {
        try (ReadDeadlines deadlines = new ReadDeadlines(TIMEOUT)) {
            Http1Config http1 = ConnectionRules.http1(deadlines);

            http1.compositeReceiveListener().prologue(null, null);
            http1.compositeReceiveListener().headers(null, null);
            assertDoesNotThrow(() -> Thread.sleep(WAIT_MILLIS), "no deadline once the headers are in");
        }
    }
}
