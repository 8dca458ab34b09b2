package dev.lnp.core.webhooks;

import dev.failsafe.Bulkhead;
import dev.failsafe.CircuitBreaker;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Per-receiver protection on this node, a receiver being a scheme, host and port: a bulkhead of a few
 * attempts in flight, and a circuit breaker that opens after consecutive failures and then lets a single probe
 * through once its delay has passed. A failing receiver therefore costs a probe now and then, and never the
 * attempt slots other receivers need.
 */
final class Receivers {

    /** One receiver's policies and how many attempts are in flight to it from this node. */
    static final class Receiver {
        final String key;
        final CircuitBreaker<Outcome> breaker;
        final Bulkhead<Outcome> bulkhead;
        final AtomicInteger inFlight = new AtomicInteger();

        Receiver(String key, CircuitBreaker<Outcome> breaker, Bulkhead<Outcome> bulkhead) {
            this.key = key;
            this.breaker = breaker;
            this.bulkhead = bulkhead;
        }

        /** How many attempts may be in flight now: all slots when healthy, one probe when half-open, none when open. */
        int allowedInFlight(int perReceiver) {
            if (breaker.isClosed()) {
                return perReceiver;
            }
            return breaker.isOpen() ? 0 : 1;
        }

        boolean saturated(int perReceiver) {
            return inFlight.get() >= allowedInFlight(perReceiver);
        }

        /** Takes a slot if the breaker and the bulkhead allow one; call {@link #leave()} when done. */
        boolean tryEnter(int perReceiver) {
            if (saturated(perReceiver) || !bulkhead.tryAcquirePermit()) {
                return false;
            }
            inFlight.incrementAndGet();
            return true;
        }

        void leave() {
            inFlight.decrementAndGet();
            bulkhead.releasePermit();
        }
    }

    private final WebhookSettings settings;
    private final Map<String, Receiver> byKey = new ConcurrentHashMap<>();

    Receivers(WebhookSettings settings) {
        this.settings = settings;
    }

    Receiver of(URI url) {
        return byKey.computeIfAbsent(key(url), key -> new Receiver(key,
                CircuitBreaker.<Outcome>builder()
                        .handleResultIf(Outcome::receiverFailing)
                        .withFailureThreshold(settings.breakerFailures())
                        .withDelay(settings.breakerDelay())
                        .withSuccessThreshold(1)
                        .build(),
                Bulkhead.<Outcome>of(settings.perReceiver())));
    }

    static String key(URI url) {
        String scheme = url.getScheme().toLowerCase(Locale.ROOT);
        int port = url.getPort() != -1 ? url.getPort() : scheme.equals("https") ? 443 : 80;
        return scheme + "://" + url.getHost().toLowerCase(Locale.ROOT) + ":" + port;
    }
}
