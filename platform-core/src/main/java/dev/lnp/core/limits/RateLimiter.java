package dev.lnp.core.limits;

import dev.lnp.api.http.ApiProblem;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * Per-key, per-minute limits, counted in PostgreSQL so that every node sharing the database enforces the same
 * budget. A fixed one-minute window: one upsert per request, which also records the key's last use.
 *
 * <p>That statement commits asynchronously ({@code synchronous_commit = off} for its own transaction only).
 * Every request of a key updates the same window row, so with a synchronous commit the row stayed locked
 * until the WAL flush and a key's concurrent requests queued one flush each behind one another. A crash can
 * lose the last fraction of a second of counts: a key may then get a few more requests in that minute.
 */
public final class RateLimiter {

    /** A limit's verdict, for the RateLimit headers. */
    public record Verdict(String bucket, int limit, int remaining, long resetSeconds) {
    }

    private final Jdbi jdbi;
    private final Clock clock;

    public RateLimiter(Jdbi jdbi, Clock clock) {
        this.jdbi = jdbi;
        this.clock = clock;
    }

    /**
     * Counts one request of the key {@code keyId} and records its use (at most once a minute, for the
     * activity history); throws 429 with Retry-After when the window's budget is spent.
     */
    public Verdict hit(UUID connectionId, UUID keyId, String bucket, int limit) {
        Instant now = clock.instant();
        Instant window = now.truncatedTo(ChronoUnit.MINUTES);
        int hits = jdbi.withHandle(h -> h.createQuery("""
                        WITH touched AS (
                            UPDATE lnp_core.api_keys SET last_used_at = now()
                             WHERE id = :key AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute'))
                        INSERT INTO lnp_core.rate_windows AS w (connection_id, bucket, window_start, hits)
                        SELECT :id, :bucket, :window, 1
                          FROM (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous_commit
                        ON CONFLICT (connection_id, bucket, window_start) DO UPDATE SET hits = w.hits + 1
                        RETURNING hits
                        """)
                .bind("id", connectionId).bind("key", keyId).bind("bucket", bucket).bind("window", window)
                .mapTo(Integer.class).one());
        long reset = Math.max(1, 60 - (now.getEpochSecond() - window.getEpochSecond()));
        Verdict verdict = new Verdict(bucket, limit, Math.max(0, limit - hits), reset);
        if (hits > limit) {
            throw new ApiProblem(429, "rate_limited", "Too Many Requests",
                    "This key made more than " + limit + " " + bucket.toUpperCase() + " requests this minute; retry after "
                            + reset + " s.", List.of(), headers(verdict));
        }
        return verdict;
    }

    /** RateLimit / RateLimit-Policy (IETF httpapi rate-limit headers draft) plus Retry-After on a 429. */
    public static Map<String, String> headers(Verdict v) {
        var headers = new java.util.LinkedHashMap<String, String>();
        headers.put("RateLimit-Policy", "\"" + v.bucket() + "\";q=" + v.limit() + ";w=60");
        headers.put("RateLimit", "\"" + v.bucket() + "\";r=" + v.remaining() + ";t=" + v.resetSeconds());
        if (v.remaining() == 0) {
            headers.put("Retry-After", Long.toString(v.resetSeconds()));
        }
        return headers;
    }

}
