package dev.lnp.api.internal.platform;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The platform's meters a subsystem records into (scraped from the management port). A subsystem names its own
 * meters, in Micrometer's dotted form under {@code lnp.} (exposed with underscores: {@code lnp.webhook.attempts} is
 * {@code lnp_webhook_attempts_total}); tag values must come from a small fixed set, never from callers' input.
 */
public interface PlatformMeters {

    /** One HTTP request into {@code http_server_requests_seconds}, labelled by its route template. */
    void request(String method, String routeTemplate, int status, long nanos);

    /** Adds one to the counter {@code name} with these tags. */
    void count(String name, String description, Map<String, String> tags);

    /** Records {@code duration} (negative counts as zero) into the histogram {@code name} with these bucket bounds. */
    void time(String name, String description, List<Duration> buckets, Duration duration);

    /** A gauge {@code name} read from {@code value} at each scrape. */
    void gauge(String name, String description, Supplier<Number> value);
}
