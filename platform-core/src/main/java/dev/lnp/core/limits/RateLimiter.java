package dev.lnp.core.limits;

import dev.lnp.api.http.ApiProblem;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * Per-key, per-minute limits, counted in PostgreSQL so that every node sharing the database enforces the same
 * budget: a fixed one-minute window per connection and surface. A request's number in the window is its position:
 * nodes reserve runs of positions on the window's row ({@link RateLeases}: one position while the budget is small,
 * up to {@link RateLeases#MAX_CHUNK} when it is large) and hand them out locally, so most requests write nothing;
 * a reservation rides on the key lookup's statement ({@code KeyRepository.admit}), so a request pays one round trip
 * for authentication and limits either way. All nodes together never admit more than the limit; a node may refuse
 * up to one chunk early per other node (positions reserved elsewhere and unused by the minute's end). This class
 * names the window and turns the position into a verdict.
 */
public final class RateLimiter {

    /** A limit's verdict, for the RateLimit headers. */
    public record Verdict(String bucket, int limit, int remaining, long resetSeconds) {
    }

    /** The current window of a surface ({@code rest} or {@code mcp}): where a request is counted. */
    public record Window(String bucket, Instant start, long resetSeconds) {
    }

    private final Clock clock;

    public RateLimiter(Clock clock) {
        this.clock = clock;
    }

    public Window window(String bucket) {
        Instant now = clock.instant();
        Instant start = now.truncatedTo(ChronoUnit.MINUTES);
        return new Window(bucket, start, Math.max(1, 60 - (now.getEpochSecond() - start.getEpochSecond())));
    }

    /** The verdict for the request at position {@code hits} of its window; 429 with Retry-After past the limit. */
    public Verdict verdict(Window window, int hits, int limit) {
        Verdict verdict = new Verdict(window.bucket(), limit, Math.max(0, limit - hits), window.resetSeconds());
        if (hits > limit) {
            throw new ApiProblem(429, "rate_limited", "Too Many Requests",
                    "This key made more than " + limit + " " + window.bucket().toUpperCase() + " requests this minute; "
                            + "retry after " + window.resetSeconds() + " s.", List.of(), headers(verdict));
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
