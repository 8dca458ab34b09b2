package dev.lnp.webhooks.pages;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.webhooks.WebhookRoutes;
import dev.lnp.webhooks.WebhookService;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * What the Webhooks pages change, each through {@link WebhookService} (the service the API's routes call) and
 * recorded in the workspace's activity under the same names as before ({@code webhook.created}, …). The create
 * form is checked against the API's own schema, so the page accepts exactly what the API accepts.
 */
final class WebhookActions {


    /** Deleting needs the ticked box the page shows beside the button; checked here, not only by the browser. */
    private static final JsonNode CONFIRM = Json.parse("""
            {"type": "object", "properties": {"confirm": {"type": "string", "title": "Delete"}}}""");

    /** A time in UTC as a person types it (or the browser's date and time input sends it), to the minute. */
    static final JsonNode RECOVER = Json.parse("""
            {"type": "object", "required": ["since"], "properties": {"since": {"type": "string",
              "title": "Since (UTC)", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2})?$",
              "x-pattern-hint": "Give a date and time in UTC, e.g. 2026-01-31T09:30",
              "description": "Every failed delivery created at or after this time is sent again (history goes back 30 days)."}}}""");

    private final WebhookService webhooks;

    WebhookActions(WebhookService webhooks) {
        this.webhooks = webhooks;
    }

    /**
     * The change form: the API's change schema without {@code enabled} (switching has buttons of its own), with the
     * URL and at least one event required, as when creating.
     */
    static JsonNode editSchema(WebhookService webhooks) {
        ObjectNode schema = webhooks.patchSchema().deepCopy();
        ((ObjectNode) schema.get("properties")).remove("enabled");
        schema.remove("minProperties");
        schema.putArray("required").add("url").add("events");
        return schema;
    }

    List<PageRoute> routes() {
        String one = WebhookPages.ONE;
        String write = WebhookRoutes.WRITE;
        return List.of(
                PageRoute.action(WebhookPages.HOME + "/new").scope(write).form(webhooks.createSchema()).action(this::create),
                PageRoute.action(one + "/edit").scope(write).form(editSchema(webhooks)).action(this::update),
                PageRoute.action(one + "/switch-off").scope(write).button().action((c, v) -> switchTo(c, false)),
                PageRoute.action(one + "/switch-on").scope(write).button().action((c, v) -> switchTo(c, true)),
                PageRoute.action(one + "/test").scope(write).button().action(this::sendTest),
                PageRoute.action(one + "/rotate-secret").scope(write).button().action(this::rotateSecret),
                PageRoute.action(one + "/delete").scope(write).form(CONFIRM).action(this::delete),
                PageRoute.action(one + "/recover").scope(write).form(RECOVER).action(this::recover),
                PageRoute.action(one + "/deliveries/{delivery}/redeliver").scope(write).button()
                        .action(this::redeliver));
    }

    private PageOutcome create(PageCall call, ObjectNode values) {
        var created = worded(() -> webhooks.create(call.tx(), values));
        var s = created.subscription();
        return PageOutcome.goTo(WebhookPages.HOME + "/" + s.id(), "The subscription was created.")
                .showingOnce("Signing secret", created.secret(), "The receiver uses it to check the "
                        + "X-Service-Signature header of every delivery; the platform never shows it again.")
                .recorded("webhook.created", PageText.target(s),
                        "events " + String.join(", ", s.events()) + (s.enabled() ? "" : "; switched off"));
    }

    private PageOutcome update(PageCall call, ObjectNode values) {
        UUID id = call.pathId("id");
        if (!values.has("description")) {
            values.putNull("description");
        }
        var s = worded(() -> webhooks.update(call.tx(), id, values));
        return PageOutcome.goTo(WebhookPages.HOME + "/" + id, "The subscription was saved.")
                .recorded("webhook.updated", PageText.target(s), "events " + String.join(", ", s.events()));
    }

    private PageOutcome switchTo(PageCall call, boolean enabled) {
        UUID id = call.pathId("id");
        ObjectNode body = Json.object().put("enabled", enabled);
        var s = webhooks.update(call.tx(), id, body);
        return PageOutcome.goTo(WebhookPages.HOME + "/" + id, enabled
                        ? "The subscription is switched on; its failure streak starts again."
                        : "The subscription is switched off; no events are delivered to it until it is switched on.")
                .recorded(enabled ? "webhook.switched_on" : "webhook.switched_off", PageText.target(s), null);
    }

    private PageOutcome sendTest(PageCall call, ObjectNode values) {
        UUID id = call.pathId("id");
        var s = webhooks.find(call.tx(), id);
        UUID delivery = webhooks.sendTest(call.tx(), id);
        return PageOutcome.goTo(WebhookPages.HOME + "/" + id + "/deliveries/" + delivery,
                        "A test delivery (webhooks.test) is queued; its attempts appear below once sent.")
                .recorded("webhook.test_sent", PageText.target(s), "delivery " + delivery);
    }

    private PageOutcome rotateSecret(PageCall call, ObjectNode values) {
        UUID id = call.pathId("id");
        var s = webhooks.find(call.tx(), id);
        var rotated = webhooks.rotateSecret(call.tx(), id);
        String until = PageText.time(rotated.previousSecretExpiresAt());
        return PageOutcome.goTo(WebhookPages.HOME + "/" + id, "A new signing secret was issued.")
                .showingOnce("Signing secret", rotated.secret(), "The previous secret keeps signing too until "
                        + until + ", so the receiver can switch without missing a delivery.")
                .recorded("webhook.secret_rotated", PageText.target(s), "previous secret signs until " + until);
    }

    private PageOutcome delete(PageCall call, ObjectNode values) {
        UUID id = call.pathId("id");
        var s = webhooks.find(call.tx(), id);
        if (!"yes".equals(values.path("confirm").asText())) {
            throw ApiProblem.invalidField("/confirm", "required",
                    "tick \"Delete this subscription and its delivery history\" to confirm.");
        }
        webhooks.delete(call.tx(), id);
        return PageOutcome.goTo(WebhookPages.HOME, "The subscription " + s.url() + " and its deliveries were deleted.")
                .recorded("webhook.deleted", PageText.target(s), null);
    }

    private PageOutcome recover(PageCall call, ObjectNode values) {
        UUID id = call.pathId("id");
        Instant since;
        try {
            since = LocalDateTime.parse(values.get("since").asText()).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw ApiProblem.invalidField("/since", "format", "No such date or time; give one in UTC, e.g. 2026-01-31T09:30.");
        }
        var s = webhooks.find(call.tx(), id);
        int requeued = webhooks.recover(call.tx(), id, since);
        return PageOutcome.goTo(WebhookPages.HOME + "/" + id, requeued + (requeued == 1
                        ? " failed delivery is queued again." : " failed deliveries are queued again."))
                .recorded("webhook.recovered", PageText.target(s),
                        requeued + " failed deliveries since " + PageText.time(since) + " queued again");
    }

    private PageOutcome redeliver(PageCall call, ObjectNode values) {
        UUID id = call.pathId("id");
        var s = webhooks.find(call.tx(), id);
        UUID delivery = call.pathId("delivery");
        webhooks.redeliver(call.tx(), id, delivery);
        return PageOutcome.goTo(WebhookPages.HOME + "/" + id + "/deliveries/" + delivery,
                        "The delivery is queued again with the same id; new attempts appear below once sent.")
                .recorded("webhook.redelivered", PageText.target(s), "delivery " + delivery);
    }

    /** The service's refusal with the API's pointer to its catalog route worded for a person on a page. */
    private static <T> T worded(Supplier<T> change) {
        try {
            return change.get();
        } catch (ApiProblem problem) {
            if (problem.errors().isEmpty()) {
                throw problem;
            }
            List<FieldError> errors = problem.errors().stream()
                    .map(e -> new FieldError(e.pointer(), e.rule(),
                            e.message().replace("; GET /api/v1/webhooks/events lists them", " (see the event catalog)")))
                    .toList();
            throw new ApiProblem(problem.status(), problem.code(), problem.title(), problem.detail(), errors,
                    problem.headers());
        }
    }
}
