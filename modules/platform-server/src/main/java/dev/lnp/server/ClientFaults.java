package dev.lnp.server;

import java.lang.System.Logger.Level;

/**
 * Reports what clients did wrong at the connection level (a body cut off, malformed framing, a stalled request):
 * one short line each, at most {@link #LINES_PER_WINDOW} per {@link #WINDOW_NANOS 10 s} and then only a count, so
 * that no unauthenticated client can flood the log. Never a stack trace: nothing failed on the server.
 */
public final class ClientFaults {

    private static final System.Logger LOG = System.getLogger(ClientFaults.class.getName());
    static final int LINES_PER_WINDOW = 5;
    static final long WINDOW_NANOS = 10_000_000_000L;

    private static long windowStart = System.nanoTime();
    private static int linesInWindow;
    private static long suppressed;

    private ClientFaults() {
    }

    /** @param what a short description, e.g. {@code 400 bad_request POST /api/v1/projects} */
    public static void report(String what) {
        String line = null;
        synchronized (ClientFaults.class) {
            long now = System.nanoTime();
            if (now - windowStart >= WINDOW_NANOS) {
                if (suppressed > 0) {
                    line = suppressed + " more client faults in the last " + (now - windowStart) / 1_000_000_000
                            + " s were not logged; latest: " + what;
                    suppressed = 0;
                }
                windowStart = now;
                linesInWindow = 0;
            }
            if (line == null) {
                if (linesInWindow >= LINES_PER_WINDOW) {
                    suppressed++;
                    return;
                }
                line = "client fault: " + what;
            }
            linesInWindow++;
        }
        LOG.log(Level.INFO, line);
    }
}
