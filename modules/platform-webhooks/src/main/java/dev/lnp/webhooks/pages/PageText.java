package dev.lnp.webhooks.pages;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.webhooks.SubscriptionRepository.Subscription;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/** How the Webhooks pages word a subscription, a delivery and a point in time. */
final class PageText {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
            .withZone(ZoneOffset.UTC);

    private PageText() {
    }

    static String time(Object instant) {
        return instant == null ? "never" : TIME.format((Instant) instant);
    }

    /** "on", "on, failing since …", "off" or "off: why the platform switched it off". */
    static String state(Subscription s) {
        if (s.enabled()) {
            return s.failingSince() == null ? "on" : "on, failing since " + time(s.failingSince());
        }
        return s.disabledReason() == null ? "off" : "off: " + s.disabledReason();
    }

    static String target(Subscription s) {
        return s.url() + " (" + s.id() + ")";
    }

    static ObjectNode row(Subscription s) {
        return Json.object().put("id", s.id().toString()).put("url", s.url())
                .put("events", String.join(", ", s.events()))
                .put("description", s.description() == null ? "" : s.description())
                .put("state", state(s)).put("created_at", time(s.createdAt()));
    }

    /** A delivery as a row of a list: its event (marked when a test), status and last result. */
    static ObjectNode deliveryRow(Map<String, Object> d) {
        return Json.object().put("id", d.get("id").toString())
                .put("event", d.get("event") + (Boolean.TRUE.equals(d.get("test")) ? " (test)" : ""))
                .put("status", (String) d.get("status")).put("attempts", (Integer) d.get("attempts"))
                .put("created_at", time(d.get("created_at"))).put("last_attempt_at", time(d.get("last_attempt_at")))
                .put("last_result", lastResult(d));
    }

    static String lastResult(Map<String, Object> d) {
        Object code = d.get("last_status_code");
        String error = (String) d.get("last_error");
        if (code == null && error == null) {
            return "not tried yet";
        }
        return (code == null ? "no response" : "HTTP " + code) + (error == null ? "" : ": " + error);
    }
}
