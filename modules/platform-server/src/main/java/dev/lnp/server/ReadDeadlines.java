package dev.lnp.server;

import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1ConnectionListener;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bounds how long reading a request's headers, and then its body, may take in total. Helidon 4.5.0 has no such
 * timeout (its idle timeout only ends connections waiting for a request line, and the socket options' read timeout
 * is not applied to accepted connections), so a client trickling its headers held a connection for ever.
 *
 * <p>A connection's (virtual) thread arms a deadline before a read and disarms it after; a watcher interrupts a
 * thread whose deadline passed, and interrupting a virtual thread blocked on a socket closes that socket.
 */
public final class ReadDeadlines implements AutoCloseable {

    private static final long CHECK_MILLIS = 250;

    private final long timeoutNanos;
    private final Map<Thread, Long> deadlines = new ConcurrentHashMap<>();
    private final Thread watcher;
    private volatile boolean running = true;

    public ReadDeadlines(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
        this.watcher = Thread.ofPlatform().daemon().name("lnp-read-deadlines").start(this::watch);
    }

    /** Starts the deadline of the calling thread's read (a request's headers, then its body). */
    public void arm() {
        deadlines.put(Thread.currentThread(), System.nanoTime() + timeoutNanos);
    }

    public void disarm() {
        deadlines.remove(Thread.currentThread());
    }

    /** Arms when a request line has been read and disarms when its headers are complete. */
    Http1ConnectionListener headerListener() {
        return new Http1ConnectionListener() {
            @Override
            public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
                arm();
            }

            @Override
            public void headers(ConnectionContext ctx, Headers headers) {
                disarm();
            }
        };
    }

    private void watch() {
        while (running) {
            try {
                Thread.sleep(CHECK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            deadlines.forEach((thread, deadline) -> {
                if (now - deadline > 0 && deadlines.remove(thread, deadline)) {
                    ClientFaults.report("read timeout: a request's headers or body took longer than "
                            + Duration.ofNanos(timeoutNanos).toSeconds() + " s; connection closed");
                    thread.interrupt();
                }
            });
        }
    }

    @Override
    public void close() {
        running = false;
        watcher.interrupt();
    }
}
