package dev.lnp.webhooks.console;

import dev.lnp.api.internal.console.Choice;
import dev.lnp.api.internal.console.Chrome;
import java.util.List;
import java.util.UUID;

/**
 * The models of the Webhooks pages ({@code src/main/jte}); times are already formatted as the pages show them. Each
 * page carries the console's chrome: its CSRF token for the forms, and the layout the console wraps the page in.
 */
public final class WebhookViews {

    private WebhookViews() {
    }

    /** A whole page: rendered by {@link WebhookTemplates} into the console's layout. */
    public interface Page {
        Chrome chrome();
    }

    public record Row(UUID id, String url, String events, String description, boolean enabled,
            String disabledReason, String failingSince, String createdAt) {
    }

    public record EventChoice(String name, String plugin, String description, boolean selected) {
    }

    /**
     * The values of the create or edit form, kept when it is shown again with errors; {@code invalid} holds each
     * refused field's message by the id of its input (in the form's order), shown next to it and linked from the
     * page's summary.
     */
    public record Form(String url, List<EventChoice> events, String otherEvents, String description,
            boolean enabled, java.util.Map<String, String> invalid) {

        public Form(String url, List<EventChoice> events, String otherEvents, String description, boolean enabled) {
            this(url, events, otherEvents, description, enabled, java.util.Map.of());
        }

        public Form withErrors(java.util.Map<String, String> errors) {
            return new Form(url, events, otherEvents, description, enabled, errors);
        }

        /** The message for the input with this id, or null when it was not refused. */
        public String error(String field) {
            return invalid.get(field);
        }

        /** The id of the element that describes the input: its error and its help, whichever it has. */
        public String describedBy(String field, String help) {
            String error = invalid.containsKey(field) ? field + "-error" : null;
            return error == null ? help : help == null ? error : error + " " + help;
        }
    }

    public record ListPage(Chrome chrome, List<Row> subscriptions, Form form, List<String> errors, long total,
            long noticeCount) implements Page {
    }

    /** A signing secret, shown once: after creation ({@code previousUntil} null) or after a rotation. */
    public record SecretPage(Chrome chrome, UUID subscriptionId, String url, String secret, String previousUntil) implements Page {
        public boolean rotated() {
            return previousUntil != null;
        }
    }

    public record CatalogEntry(String name, String plugin, String description, String aliases) {
    }

    public record CatalogPage(Chrome chrome, List<CatalogEntry> events) implements Page {
    }

    public record DeliveryRow(UUID id, String event, boolean test, String status, int attempts, String createdAt,
            String lastAttemptAt, String lastResult) {
    }

    public record SubscriptionPage(Chrome chrome, Row subscription, Form form, List<String> errors, String done,
            List<DeliveryRow> deliveries, List<Choice> statusChoices, String statusFilter, int page,
            boolean hasMore, long deliveryTotal, String recoverSince) implements Page {
        public String pageHref(int number) {
            return "/console/webhooks/" + subscription.id() + "?page=" + number
                    + (statusFilter.isEmpty() ? "" : "&status=" + statusFilter) + "#deliveries";
        }
    }

    public record AttemptRow(int attempt, String at, int durationMs, String statusCode, String outcome, String error,
            String response, boolean truncated) {
    }

    public record DeliveryPage(Chrome chrome, UUID subscriptionId, String subscriptionUrl, DeliveryRow delivery,
            String occurredAt, String nextAttemptAt, String completedAt, List<AttemptRow> attempts,
            List<String> errors, String done) implements Page {
    }

    public record NoticeRow(String at, String kind, UUID subjectId, String recipient, String message,
            String emailedAt) {
    }

    public record NoticesPage(Chrome chrome, List<NoticeRow> notices, int page, boolean hasMore, long total) implements Page {
    }
}
