package dev.lnp.webhooks;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.failsafe.CircuitBreakerOpenException;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.Timeout;
import dev.failsafe.TimeoutExceededException;
import dev.lnp.webhooks.signature.StandardWebhookSignature;
import dev.lnp.webhooks.signature.WebhookSignature;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes one attempt of a delivery: the body, the headers with a fresh timestamp and the signatures, and the request through the receiver's circuit breaker within the request timeout.
 */
final class Sender {

    static final String USER_AGENT = "lnp-webhooks/1";

    /** An attempt was made ({@link Attempted}), or the receiver's circuit was open and nothing was sent. */
    sealed interface Result permits Attempted, Deferred {
    }

    record Attempted(Instant startedAt, Duration duration, Outcome outcome) implements Result {
    }

    record Deferred(Duration delay) implements Result {
    }

    private final ReceiverClient client;
    private final Timeout<Outcome> timeout;
    private final Clock clock;
    private final SigningKeys keys = new SigningKeys();

    Sender(ReceiverClient client, Duration requestTimeout, Clock clock) {
        this.client = client;
        this.timeout = Timeout.<Outcome>builder(requestTimeout).withInterrupt().build();
        this.clock = clock;
    }

    Result send(ClaimedDelivery delivery, Receivers.Receiver receiver) {
        byte[] body = body(delivery);
        Instant startedAt = clock.instant();
        long started = System.nanoTime();
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("User-Agent", USER_AGENT);
        headers.put(WebhookSignature.DELIVERY_ID_HEADER, delivery.id().toString());
        headers.put(WebhookSignature.EVENT_HEADER, delivery.eventName());
        headers.put(WebhookSignature.TIMESTAMP_HEADER, Long.toString(startedAt.getEpochSecond()));
        headers.putAll(signatures(delivery, startedAt.getEpochSecond(), body));
        headers.put("X-Service-Attempt", Integer.toString(delivery.attempts() + 1));
        Outcome outcome;
        try {
            outcome = Failsafe.with(receiver.breaker).compose(timeout).get(() -> {
                var response = client.post(URI.create(delivery.url()), headers, body);
                return Outcome.ofResponse(response.status(), response.body(), response.truncated(),
                        Outcome.parseRetryAfter(response.retryAfter().orElse(null), clock.instant()));
            });
        } catch (CircuitBreakerOpenException e) {
            return new Deferred(receiver.breaker.getRemainingDelay());
        } catch (TimeoutExceededException e) {
            outcome = Outcome.ofFailure(noAnswer());
        } catch (FailsafeException | ReceiverClient.AddressRefused e) {
            outcome = Outcome.ofFailure(describe(e instanceof FailsafeException ? e.getCause() : e));
        } catch (RuntimeException e) {
            outcome = Outcome.ofFailure(describe(e));
        }
        return new Attempted(startedAt, Duration.ofNanos(System.nanoTime() - started), outcome);
    }

    /**
     * The signature headers. {@code X-Service-Signature} is always exactly one signature, made with the oldest
     * valid secret: during a rotation's overlap that is the previous secret, which a receiver that has not updated
     * yet still holds, so it keeps working; the new secret's signature goes in {@code X-Service-Signature-Next}
     * and takes over the contract header when the overlap ends. The Standard Webhooks headers carry one {@code v1}
     * signature per valid secret in that scheme's form (none for an older base64url secret).
     *
     * @param secrets the subscription's valid secrets, newest first (at most two)
     */
    Map<String, String> signatures(ClaimedDelivery delivery, long timestamp, byte[] body) {
        List<String> secrets = delivery.secrets();
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(WebhookSignature.SIGNATURE_HEADER, keys.sign(secrets.getLast(), timestamp, body));
        if (secrets.size() > 1) {
            headers.put(WebhookSignature.NEXT_SIGNATURE_HEADER, keys.sign(secrets.getFirst(), timestamp, body));
        }
        String id = delivery.id().toString();
        headers.put(StandardWebhookSignature.ID_HEADER, id);
        headers.put(StandardWebhookSignature.TIMESTAMP_HEADER, Long.toString(timestamp));
        keys.standardHeader(secrets, id, timestamp, body)
                .ifPresent(value -> headers.put(StandardWebhookSignature.SIGNATURE_HEADER, value));
        return headers;
    }

    /**
     * The JSON body. It names the delivery, so the id is covered by the signature; it holds no attempt-specific
     * data, so every attempt sends the same bytes. {@code data} is the payload's text as PostgreSQL prints the
     * stored {@code jsonb} (a canonical form, the same on every read), copied in without being parsed: the
     * other fields are ids, a timestamp and a catalog name, so the body is valid JSON whatever the payload holds.
     */
    static byte[] body(ClaimedDelivery delivery) {
        String payload = delivery.payload();
        StringBuilder body = new StringBuilder(160 + payload.length())
                .append("{\"delivery_id\":\"").append(delivery.id())
                .append("\",\"event_id\":\"").append(delivery.eventId())
                .append("\",\"event\":\"").append(JsonStringEncoder.getInstance().quoteAsString(delivery.eventName()))
                .append("\",\"workspace_id\":\"").append(delivery.workspaceId())
                .append("\",\"occurred_at\":\"").append(DateTimeFormatter.ISO_INSTANT.format(delivery.occurredAt()))
                .append("\",\"data\":").append(payload).append('}');
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }

    private String noAnswer() {
        return "no response within " + timeout.getConfig().getTimeout().toMillis() + " ms";
    }

    private String describe(Throwable e) {
        if (e instanceof ReceiverClient.AddressRefused) {
            return "refused to connect: " + e.getMessage();
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            if (root instanceof ConnectException || root instanceof SocketTimeoutException
                    || root instanceof UnknownHostException) {
                break;
            }
            root = root.getCause();
        }
        if (root instanceof ConnectException) {
            return "connection failed: " + root.getMessage();
        }
        if (root instanceof SocketTimeoutException) {
            return noAnswer();
        }
        if (root instanceof UnknownHostException) {
            return "the receiver host does not resolve: " + root.getMessage();
        }
        String kind = root instanceof IOException ? "network error" : "request failed";
        return kind + ": " + root.getClass().getSimpleName() + (root.getMessage() == null ? "" : " " + root.getMessage());
    }
}
