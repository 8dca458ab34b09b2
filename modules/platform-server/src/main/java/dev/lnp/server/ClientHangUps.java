package dev.lnp.server;

import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerResponse;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;

/**
 * A client that closed its connection while its answer was being written (a closed tab, a reload, a load generator
 * stopping): nothing failed on the server and nothing can reach that client any more, so it is neither an error
 * nor a stack trace. Reported as one short DEBUG line, at most {@link #LINES_PER_WINDOW} per 10 s and then a count,
 * so that no client can flood the log by hanging up.
 */
public final class ClientHangUps {

    private static final System.Logger LOG = System.getLogger(ClientHangUps.class.getName());
    static final int LINES_PER_WINDOW = 5;
    private static final long WINDOW_NANOS = 10_000_000_000L;

    private static long windowStart = System.nanoTime();
    private static int linesInWindow;
    private static long suppressed;

    private ClientHangUps() {
    }

    /**
     * Whether a failure is the connection dying under an answer already handed to the server. Helidon 4.4 let the
     * socket's {@link UncheckedIOException} through; 4.5 wraps it in a {@link CloseConnectionException}
     * ({@code ServerConnectionException: Failed to write response}), so both are recognised, and only once the
     * response counts as sent: before that, an I/O failure is the server's to report.
     */
    public static boolean isHangUp(RuntimeException e, ServerResponse res) {
        return res.isSent() && (e instanceof UncheckedIOException || e instanceof CloseConnectionException);
    }

    /** @param what the request, e.g. {@code GET /console/sign-in} */
    public static void report(String what, RuntimeException e) {
        if (!LOG.isLoggable(Level.DEBUG)) {
            return;
        }
        String line;
        synchronized (ClientHangUps.class) {
            long now = System.nanoTime();
            if (now - windowStart >= WINDOW_NANOS) {
                line = suppressed > 0 ? " (" + suppressed + " more in the last " + (now - windowStart) / 1_000_000_000
                        + " s not logged)" : "";
                suppressed = 0;
                windowStart = now;
                linesInWindow = 0;
            } else if (linesInWindow >= LINES_PER_WINDOW) {
                suppressed++;
                return;
            } else {
                line = "";
            }
            linesInWindow++;
        }
        LOG.log(Level.DEBUG, "client closed the connection before its response was written: " + what + " ("
                + e.getMessage() + ")" + line);
    }
}
