package dev.lnp.core.webhooks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.failsafe.CircuitBreakerOpenException;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.Timeout;
import dev.failsafe.TimeoutExceededException;
import dev.lnp.api.Json;
import dev.lnp.api.webhooks.WebhookSignature;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Makes one attempt of a delivery: the body, the headers with a fresh timestamp and one signature per valid
 * secret, and the request through the receiver's circuit breaker within the request timeout.
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
        headers.put(WebhookSignature.SIGNATURE_HEADER,
                WebhookSignature.header(delivery.secrets(), startedAt.getEpochSecond(), body));
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
     * The JSON body. It names the delivery, so the id is covered by the signature; it holds no attempt-specific
     * data, so every attempt sends the same bytes.
     */
    static byte[] body(ClaimedDelivery delivery) {
        ObjectNode body = Json.object();
        body.put("delivery_id", delivery.id().toString());
        body.put("event_id", delivery.eventId().toString());
        body.put("event", delivery.eventName());
        body.put("workspace_id", delivery.workspaceId().toString());
        body.put("occurred_at", DateTimeFormatter.ISO_INSTANT.format(delivery.occurredAt()));
        body.set("data", Json.parse(delivery.payload()));
        try {
            return Json.mapper().writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree read from JSON writes back", e);
        }
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
