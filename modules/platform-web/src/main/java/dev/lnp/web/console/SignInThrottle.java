package dev.lnp.web.console;

import java.time.Duration;
import org.jdbi.v3.core.Jdbi;

/**
 * Limits sign-in requests per address and per client IP over a sliding window. Counted in PostgreSQL, so the
 * limit holds however many nodes serve the console.
 */
public final class SignInThrottle {

    private final Jdbi jdbi;
    private final Duration window;

    public SignInThrottle(Jdbi jdbi, Duration window) {
        this.jdbi = jdbi;
        this.window = window;
    }

    /** Records one attempt in {@code bucket}; true while the bucket has at most {@code limit} in the window. */
    public boolean allow(String bucket, int limit) {
        return jdbi.inTransaction(h -> {
            // One transaction-scoped lock per bucket: concurrent attempts cannot both see the last free slot.
            h.createQuery("SELECT pg_advisory_xact_lock(hashtextextended(:b, 16))::text").bind("b", bucket)
                    .mapTo(String.class).one();
            h.createUpdate("DELETE FROM lnp_core.sign_in_attempts WHERE bucket = :b AND at < now() - CAST(:w AS interval)")
                    .bind("b", bucket).bind("w", window.toSeconds() + " seconds").execute();
            int recent = h.createQuery("SELECT count(*) FROM lnp_core.sign_in_attempts WHERE bucket = :b")
                    .bind("b", bucket).mapTo(Integer.class).one();
            if (recent >= limit) {
                return false;
            }
            h.createUpdate("INSERT INTO lnp_core.sign_in_attempts (bucket) VALUES (:b)").bind("b", bucket).execute();
            return true;
        });
    }
}
