package dev.lnp.api.internal.platform;

import java.time.Duration;
import java.util.function.Supplier;

/** The platform's meters a subsystem records into (scraped from the management port). */
public interface PlatformMeters {

    /** One HTTP request into {@code http_server_requests_seconds}, labelled by its route template. */
    void request(String method, String routeTemplate, int status, long nanos);

    /** One webhook delivery attempt and, once it ended, its delivery's lag since the event. */
    void webhookAttempt(String attemptOutcome, String deliveryState, Duration sinceEvent);

    /** The webhook deliveries waiting, read at each scrape. */
    void webhookQueue(Supplier<Number> pending);
}
