package dev.lnp.webhooks.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.PluginContext;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.Page;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.internal.console.ConsoleApi.Call;
import dev.lnp.api.internal.console.ConsoleApi;
import dev.lnp.api.internal.console.ConsoleAuthorization.Permission;
import dev.lnp.api.internal.console.ConsoleAuthorization;
import dev.lnp.api.internal.console.ConsoleSession;
import dev.lnp.api.internal.console.ConsoleTime;
import dev.lnp.api.internal.db.Transactions;
import dev.lnp.webhooks.EventCatalog;
import dev.lnp.webhooks.SubscriptionRepository.Subscription;
import dev.lnp.webhooks.WebhookRoutes;
import dev.lnp.webhooks.WebhookService;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The webhook operations as JSON for a signed-in owner or admin ({@code /console/api/webhooks/...}): the shapes
 * and rules of {@code /api/v1/webhooks}, because both call {@link WebhookService} (its schemas check the bodies),
 * with {@link ConsoleApi}'s session, CSRF, envelope and problem+json. Every change is recorded in the console
 * activity under the same action names as the Webhooks pages.
 */
final class WebhookManagementApi {

    private static final String BASE = "/api/webhooks";
    private static final String ONE = BASE + "/subscriptions/{id}";

    private final ConsoleApi api;
    private final Transactions transactions;
    private final WebhookService webhooks;

    WebhookManagementApi(ConsoleApi api, Transactions transactions, WebhookService webhooks) {
        this.api = api;
        this.transactions = transactions;
        this.webhooks = webhooks;
    }

    void routing(HttpRules rules) {
        rules.get(BASE + "/events", api.json(this::events))
                .get(BASE + "/notices", api.json(this::notices))
                .get(BASE + "/subscriptions", api.json(this::list))
                .post(BASE + "/subscriptions", api.json(this::create))
                .get(ONE, api.json(this::get))
                .patch(ONE, api.json(this::update))
                .delete(ONE, api.json(this::delete))
                .post(ONE + "/rotate-secret", api.json(this::rotateSecret))
                .post(ONE + "/test", api.json(this::test))
                .get(ONE + "/deliveries", api.json(this::deliveries))
                .get(ONE + "/deliveries/{delivery_id}", api.json(this::delivery))
                .post(ONE + "/deliveries/{delivery_id}/redeliver", api.json(this::redeliver))
                .post(ONE + "/recover", api.json(this::recover));
    }

    private Object events(Call call) {
        var session = viewing(call);
        ArrayNode data = Json.mapper().valueToTree(inWorkspace(session, webhooks::catalogEntries));
        return api.envelope(data);
    }

    private Object notices(Call call) {
        var session = viewing(call);
        var page = page(call);
        var found = inWorkspace(session, tx -> Map.entry(webhooks.notices(tx, page.limit(), page.offset()),
                webhooks.noticeCount(tx)));
        return paged(found.getKey(), Page.of(page, found.getValue()));
    }

    private Object list(Call call) {
        var session = viewing(call);
        var page = page(call);
        var found = inWorkspace(session, tx -> Map.entry(webhooks.list(tx, page.limit(), page.offset()),
                webhooks.count(tx)));
        return paged(found.getKey().stream().map(Subscription::toJson).toList(), Page.of(page, found.getValue()));
    }

    private Object create(Call call) {
        var session = managing(call);
        JsonNode body = api.jsonObject(call);
        webhooks.checkShape(body, false);
        var created = inWorkspace(session, tx -> webhooks.create(tx, body));
        var subscription = created.subscription();
        api.activity().record(session, "webhook.created", target(subscription),
                "events " + String.join(", ", subscription.events()) + (subscription.enabled() ? "" : "; switched off"));
        Map<String, Object> json = subscription.toJson();
        json.put("secret", created.secret());
        call.res().status(Status.CREATED_201);
        return json;
    }

    private Object get(Call call) {
        var session = viewing(call);
        UUID id = id(call, "id");
        return inWorkspace(session, tx -> webhooks.find(tx, id)).toJson();
    }

    private Object update(Call call) {
        var session = managing(call);
        UUID id = id(call, "id");
        JsonNode body = api.jsonObject(call);
        webhooks.checkShape(body, true);
        var updated = inWorkspace(session, tx -> webhooks.update(tx, id, body));
        api.activity().record(session, "webhook.updated", target(updated),
                "events " + String.join(", ", updated.events()) + (updated.enabled() ? "" : "; switched off"));
        return updated.toJson();
    }

    private Object delete(Call call) {
        var session = managing(call);
        UUID id = id(call, "id");
        var deleted = inWorkspace(session, tx -> {
            var subscription = webhooks.find(tx, id);
            webhooks.delete(tx, id);
            return subscription;
        });
        api.activity().record(session, "webhook.deleted", target(deleted), null);
        return null;
    }

    private Object rotateSecret(Call call) {
        var session = managing(call);
        UUID id = id(call, "id");
        var rotated = inWorkspace(session, tx -> Map.entry(webhooks.find(tx, id), webhooks.rotateSecret(tx, id)));
        var secret = rotated.getValue();
        api.activity().record(session, "webhook.secret_rotated", target(rotated.getKey()),
                "previous secret signs until " + ConsoleTime.format(secret.previousSecretExpiresAt()));
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", secret.subscriptionId());
        json.put("secret", secret.secret());
        json.put("previous_secret_expires_at", secret.previousSecretExpiresAt());
        return json;
    }

    private Object test(Call call) {
        var session = managing(call);
        UUID id = id(call, "id");
        var sent = inWorkspace(session, tx -> Map.entry(webhooks.find(tx, id), webhooks.sendTest(tx, id)));
        api.activity().record(session, "webhook.test_sent", target(sent.getKey()), "delivery " + sent.getValue());
        call.res().status(Status.ACCEPTED_202);
        return Map.of("delivery_id", sent.getValue(), "event", EventCatalog.TEST_EVENT.name(), "status", "pending");
    }

    private Object deliveries(Call call) {
        var session = viewing(call);
        UUID id = id(call, "id");
        var page = page(call);
        Optional<String> state = call.req().query().first("status").asOptional();
        if (state.isPresent() && !WebhookRoutes.STATES.contains(state.get())) {
            throw queryProblem(new FieldError("?status", "enum", "status must be one of "
                    + String.join(", ", WebhookRoutes.STATES)));
        }
        var found = inWorkspace(session, tx -> Map.entry(
                webhooks.deliveries(tx, id, state, page.limit(), page.offset()), webhooks.deliveryCount(tx, id, state)));
        return paged(found.getKey(), Page.of(page, found.getValue()));
    }

    private Object delivery(Call call) {
        var session = viewing(call);
        UUID id = id(call, "id");
        UUID deliveryId = id(call, "delivery_id");
        return inWorkspace(session, tx -> webhooks.delivery(tx, id, deliveryId));
    }

    private Object redeliver(Call call) {
        var session = managing(call);
        UUID id = id(call, "id");
        UUID deliveryId = id(call, "delivery_id");
        var subscription = inWorkspace(session, tx -> {
            var found = webhooks.find(tx, id);
            webhooks.redeliver(tx, id, deliveryId);
            return found;
        });
        api.activity().record(session, "webhook.redelivered", target(subscription), "delivery " + deliveryId);
        call.res().status(Status.ACCEPTED_202);
        return Map.of("id", deliveryId, "status", "pending");
    }

    private Object recover(Call call) {
        var session = managing(call);
        UUID id = id(call, "id");
        JsonNode body = api.jsonObject(call);
        webhooks.checkRecoverShape(body);
        Instant since = OffsetDateTime.parse(body.get("since").asText()).toInstant();
        var recovered = inWorkspace(session, tx -> Map.entry(webhooks.find(tx, id), webhooks.recover(tx, id, since)));
        api.activity().record(session, "webhook.recovered", target(recovered.getKey()),
                recovered.getValue() + " failed deliveries since " + ConsoleTime.format(since) + " queued again");
        call.res().status(Status.ACCEPTED_202);
        return Map.of("requeued", recovered.getValue(), "since", since);
    }

    private ConsoleSession viewing(Call call) {
        var session = api.session(call.exchange());
        ConsoleAuthorization.require(session, Permission.VIEW_WEBHOOKS);
        return session;
    }

    /** A change: CSRF (and origin) first, then the role, as for every other state change of the console's JSON. */
    private ConsoleSession managing(Call call) {
        var session = api.changing(call);
        ConsoleAuthorization.require(session, Permission.MANAGE_WEBHOOKS);
        return session;
    }

    private <R> R inWorkspace(ConsoleSession session, PluginContext.WorkspaceWork<R> work) {
        return transactions.inWorkspace(session.workspaceId(), work);
    }

    /** A malformed id is 400 naming the parameter, as on /api/v1; a well-formed one of another workspace is 404. */
    private UUID id(Call call, String name) {
        return api.pathId(call, name);
    }

    /** {@code page} (from 1) and {@code limit} (1 to 100, 50 by default), as the v1 lists take them. */
    private static PageRequest page(Call call) {
        var query = call.req().query();
        int page = number(query.first("page").orElse("1"), "?page");
        int limit = number(query.first("limit").orElse(String.valueOf(PageRequest.DEFAULT_LIMIT)), "?limit");
        if (page < 1) {
            throw queryProblem(new FieldError("?page", "minimum", "page must be 1 or more"));
        }
        if (limit < 1 || limit > PageRequest.MAX_LIMIT) {
            throw queryProblem(new FieldError("?limit", "range", "limit must be between 1 and " + PageRequest.MAX_LIMIT));
        }
        return new PageRequest(page, limit);
    }

    private static int number(String text, String pointer) {
        if (!text.matches("\\d{1,9}")) {
            throw queryProblem(new FieldError(pointer, "type", pointer.substring(1) + " must be a whole number"));
        }
        return Integer.parseInt(text);
    }

    private static ApiProblem queryProblem(FieldError error) {
        return new ApiProblem(400, "invalid_query", "Bad Request",
                "Invalid query parameter(s): " + error.pointer().substring(1) + ".", List.of(error), Map.of());
    }

    private static ObjectNode paged(List<? extends Map<String, Object>> items, Page page) {
        ObjectNode body = Json.object();
        body.set("data", Json.mapper().valueToTree(new ArrayList<>(items)));
        body.putObject("pagination").put("page", page.page()).put("limit", page.limit()).put("total", page.total())
                .put("has_more", page.hasMore());
        return body;
    }

    private static String target(Subscription s) {
        return s.url() + " (" + s.id() + ")";
    }
}
