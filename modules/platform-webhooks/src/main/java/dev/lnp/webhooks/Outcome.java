package dev.lnp.webhooks;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * What one attempt came to.
 *
 * @param statusCode   the receiver's status, or null when no response came (timeout, refused connection)
 * @param error        what went wrong, for the delivery history; null on success
 * @param responseBody the first bytes of the response body (up to the cap), as text
 * @param retryAfter   the receiver's {@code Retry-After}, when it sent one
 */
public record Outcome(Verdict verdict, Integer statusCode, String error, String responseBody, boolean truncated,
        Optional<Instant> retryAfter) {

    /** 2xx delivered; 4xx but 429 refused for good; everything else (429, 5xx, 3xx, no answer) tried again. */
    public enum Verdict { DELIVERED, PERMANENT, RETRY }

    public static Outcome ofResponse(int status, String body, boolean truncated, Optional<Instant> retryAfter) {
        Verdict verdict = classify(status);
        String error = switch (verdict) {
            case DELIVERED -> null;
            case PERMANENT -> "the receiver answered " + status + " (a 4xx other than 429 is not retried)";
            case RETRY -> status >= 300 && status < 400
                    ? "the receiver answered " + status + " (redirects are not followed)"
                    : "the receiver answered " + status;
        };
        return new Outcome(verdict, status, error, body, truncated, retryAfter);
    }

    /** No usable response: timeouts, refused or reset connections, refused addresses. Always retried. */
    public static Outcome ofFailure(String error) {
        return new Outcome(Verdict.RETRY, null, error, null, false, Optional.empty());
    }

    public static Verdict classify(int status) {
        if (status >= 200 && status < 300) {
            return Verdict.DELIVERED;
        }
        if (status >= 400 && status < 500 && status != 429) {
            return Verdict.PERMANENT;
        }
        return Verdict.RETRY;
    }

    /** Whether the receiver itself is in trouble (counts against its circuit breaker). */
    public boolean receiverFailing() {
        return verdict == Verdict.RETRY;
    }

    /** {@code Retry-After} as seconds or an HTTP date; anything else is ignored. */
    public static Optional<Instant> parseRetryAfter(String value, Instant now) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        String v = value.trim();
        if (v.matches("\\d{1,9}")) {
            return Optional.of(now.plusSeconds(Long.parseLong(v)));
        }
        try {
            return Optional.of(ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
