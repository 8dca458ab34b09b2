package dev.lnp.webhooks.pages;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.DetailView.Field;
import dev.lnp.api.pages.Filter;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.webhooks.WebhookRoutes;
import dev.lnp.webhooks.WebhookService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** A subscription's deliveries, newest first and filtered by status, and one delivery with every attempt. */
final class DeliveryPages {

    private final WebhookService webhooks;

    DeliveryPages(WebhookService webhooks) {
        this.webhooks = webhooks;
    }

    /** The deliveries' table, each linked to its page under {@code base} (the subscription's page). */
    static ListView table(String title, String base, List<ObjectNode> rows, boolean hasMore) {
        return ListView.of(title, List.of(
                        Column.of("Created", "created_at").linkedTo(base + "/deliveries/{id}"),
                        Column.of("Event", "event"), Column.of("Status", "status"), Column.of("Attempts", "attempts"),
                        Column.of("Last attempt", "last_attempt_at"), Column.of("Last result", "last_result")),
                rows, hasMore).emptyText("No deliveries yet.");
    }

    ListView list(PageCall call) {
        UUID id = call.pathId("id");
        Optional<String> state = call.query("status");
        if (state.isPresent() && !WebhookRoutes.STATES.contains(state.get())) {
            throw new ApiProblem(400, "invalid_query", "Bad Request",
                    "Status: choose " + String.join(", ", WebhookRoutes.STATES) + " or any.");
        }
        var s = webhooks.find(call.tx(), id);
        var page = call.page();
        var found = webhooks.deliveries(call.tx(), id, state, page.limit(), page.offset());
        long total = webhooks.deliveryCount(call.tx(), id, state);
        String base = WebhookPages.HOME + "/" + id;
        return table("Deliveries to " + s.url(), base, found.stream().map(PageText::deliveryRow).toList(),
                        page.offset() + found.size() < total)
                .filters(Filter.choice("status", "Status", WebhookRoutes.STATES.stream()
                        .map(v -> new Filter.Choice(v, v)).toList()))
                .actions(Link.to("Subscription", base))
                .emptyText(state.isEmpty() ? "No deliveries yet." : "No " + state.get() + " deliveries.");
    }

    DetailView show(PageCall call) {
        UUID id = call.pathId("id");
        var s = webhooks.find(call.tx(), id);
        UUID deliveryId = call.pathId("delivery");
        Map<String, Object> d = webhooks.delivery(call.tx(), id, deliveryId);
        String base = WebhookPages.HOME + "/" + id;
        List<ObjectNode> attempts = new ArrayList<>();
        if (d.get("attempt_history") instanceof List<?> history) {
            for (Object item : history) {
                @SuppressWarnings("unchecked")
                Map<String, Object> a = (Map<String, Object>) item;
                String response = (String) a.get("response_body");
                attempts.add(Json.object().put("attempt", (Integer) a.get("attempt"))
                        .put("at", PageText.time(a.get("at"))).put("duration_ms", (Integer) a.get("duration_ms"))
                        .put("status_code", a.get("status_code") == null ? "none" : a.get("status_code").toString())
                        .put("outcome", (String) a.get("outcome"))
                        .put("error", a.get("error") == null ? "" : (String) a.get("error"))
                        .put("response", (response == null ? "" : response)
                                + (Boolean.TRUE.equals(a.get("response_truncated")) ? " (cut short)" : "")));
            }
        }
        var view = new DetailView("Delivery of " + d.get("event"), List.of(
                new Field("Subscription", s.url()),
                new Field("Status", (String) d.get("status")),
                new Field("Delivery id", deliveryId + " (the X-Service-Delivery-Id header; a redelivery keeps it)"),
                new Field("Test", Boolean.TRUE.equals(d.get("test")) ? "yes" : "no"),
                new Field("Event happened", PageText.time(d.get("occurred_at"))),
                new Field("Created", PageText.time(d.get("created_at"))),
                new Field("Attempts", String.valueOf(d.get("attempts"))),
                new Field("Next attempt", PageText.time(d.get("next_attempt_at"))),
                new Field("Completed", PageText.time(d.get("completed_at")))),
                List.of(ListView.of("Attempts, oldest first", List.of(Column.of("#", "attempt"),
                        Column.of("Started", "at"), Column.of("ms", "duration_ms"),
                        Column.of("HTTP status", "status_code"), Column.of("Outcome", "outcome"),
                        Column.of("Error", "error"), Column.of("Response (start)", "response")), attempts, false)
                        .emptyText("No attempt yet.")),
                List.of());
        List<Link> links = new ArrayList<>(List.of(Link.to("Subscription", base),
                Link.to("All deliveries", base + "/deliveries")));
        if (call.may(WebhookRoutes.WRITE)) {
            links.add(Link.post("Redeliver", base + "/deliveries/" + deliveryId + "/redeliver", null));
        }
        return view.actions(links.toArray(Link[]::new));
    }
}
