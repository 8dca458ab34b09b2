package dev.lnp.core.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.JsonSchemas;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.Page;
import dev.lnp.api.http.QueryParam;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.core.plugins.PluginRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The webhook routes: subscriptions, their secrets and delivery history, the event catalog and the notices.
 * Every route runs in the caller's workspace transaction; an id of another workspace is not found.
 */
public final class WebhookRoutes {

    public static final String READ = "webhooks.read";
    public static final String WRITE = "webhooks.write";
    static final String BASE = "/api/v1/webhooks";
    static final String SUBSCRIPTIONS = BASE + "/subscriptions";
    static final List<String> STATES = List.of("pending", "delivered", "failed");

    private final EventCatalog catalog;
    private final ReceiverGuard guard;
    private final WebhookSettings settings;
    private final Clock clock;
    private final JsonNode createSchema;
    private final JsonNode patchSchema;
    private final JsonNode recoverSchema;

    public WebhookRoutes(PluginRegistry registry, WebhookSettings settings, Clock clock) {
        this.catalog = new EventCatalog(registry);
        this.guard = ReceiverGuard.withSystemDns(settings.allowedNetworks());
        this.settings = settings;
        this.clock = clock;
        this.createSchema = Json.resource(WebhookRoutes.class, "webhook-schemas/subscription-create.json");
        this.patchSchema = JsonSchemas.patchOf(createSchema, "Webhook subscription changes",
                Set.of("url", "events", "enabled", "description"));
        this.recoverSchema = Json.resource(WebhookRoutes.class, "webhook-schemas/recover.json");
    }

    public List<RouteSpec> routes() {
        String one = SUBSCRIPTIONS + "/{id}";
        return List.of(
                RouteSpec.get(BASE + "/events").scope(READ)
                        .summary("Every event a subscription can name, with its payload schema and aliases")
                        .handler(req -> ApiResponse.of(catalog.entries())),
                RouteSpec.get(SUBSCRIPTIONS).scope(READ).paginated()
                        .summary("List webhook subscriptions, newest first").handler(this::list),
                RouteSpec.post(SUBSCRIPTIONS).scope(WRITE).body(createSchema)
                        .summary("Create a subscription; the answer carries its signing secret, shown only once")
                        .handler(this::create),
                RouteSpec.get(one).scope(READ).summary("One subscription").handler(this::get),
                RouteSpec.patch(one).scope(WRITE).body(patchSchema)
                        .summary("Change a subscription's URL, events, description or enabled state")
                        .handler(this::update),
                RouteSpec.delete(one).scope(WRITE).status(204)
                        .summary("Delete a subscription with its delivery history").handler(this::delete),
                RouteSpec.post(one + "/rotate-secret").scope(WRITE).status(200)
                        .summary("Issue a new signing secret; the previous one keeps signing for the overlap")
                        .handler(this::rotate),
                RouteSpec.post(one + "/test").scope(WRITE).status(202)
                        .summary("Send a webhooks.test delivery to the receiver").handler(this::test),
                RouteSpec.get(one + "/deliveries").scope(READ).paginated()
                        .query(QueryParam.oneOf("status", STATES, "Keep deliveries in this state"))
                        .summary("The subscription's deliveries, newest first").handler(this::deliveries),
                RouteSpec.get(one + "/deliveries/{delivery_id}").scope(READ)
                        .summary("One delivery with every attempt").handler(this::delivery),
                RouteSpec.post(one + "/deliveries/{delivery_id}/redeliver").scope(WRITE).status(202)
                        .summary("Send a delivery again, with the same delivery id").handler(this::redeliver),
                RouteSpec.post(one + "/recover").scope(WRITE).status(202).body(recoverSchema)
                        .summary("Send again every failed delivery created since a time").handler(this::recover),
                RouteSpec.get(BASE + "/notices").scope(READ).paginated()
                        .summary("Notices for the workspace owner, e.g. a subscription switched off")
                        .handler(this::notices));
    }

    private ApiResponse list(ApiRequest req) {
        var subscriptions = repository(req);
        var page = req.pageRequest();
        List<Map<String, Object>> items = subscriptions.page(page.limit(), page.offset()).stream()
                .map(SubscriptionRepository.Subscription::toJson).toList();
        return ApiResponse.page(items, Page.of(page, subscriptions.count()));
    }

    private ApiResponse create(ApiRequest req) {
        JsonNode body = req.body();
        List<FieldError> errors = new ArrayList<>();
        String url = checkedUrl(body.get("url").asText(), errors);
        List<String> events = catalog.normalize(texts(body.get("events")), "/events", errors);
        failIfAny(errors);
        Instant now = clock.instant();
        var subscriptions = repository(req);
        var created = subscriptions.insert(url, events, textOrNull(body.get("description")),
                body.path("enabled").asBoolean(true), now);
        String secret = SigningSecrets.generate();
        subscriptions.addSecret(created.id(), secret, now);
        Map<String, Object> json = created.toJson();
        json.put("secret", secret);
        return ApiResponse.of(json);
    }

    private ApiResponse get(ApiRequest req) {
        return ApiResponse.of(found(req).toJson());
    }

    private ApiResponse update(ApiRequest req) {
        JsonNode body = req.body();
        List<FieldError> errors = new ArrayList<>();
        String url = body.has("url") ? checkedUrl(body.get("url").asText(), errors) : null;
        List<String> events = body.has("events") ? catalog.normalize(texts(body.get("events")), "/events", errors) : null;
        failIfAny(errors);
        var changes = new SubscriptionRepository.Changes(url, events, body.has("description"),
                textOrNull(body.get("description")), body.has("enabled") ? body.get("enabled").asBoolean() : null);
        return ApiResponse.of(repository(req).update(req.pathId("id"), changes, clock.instant())
                .orElseThrow(WebhookRoutes::subscriptionNotFound).toJson());
    }

    private ApiResponse delete(ApiRequest req) {
        if (!repository(req).delete(req.pathId("id"))) {
            throw subscriptionNotFound();
        }
        return ApiResponse.status(204, null);
    }

    private ApiResponse rotate(ApiRequest req) {
        var subscription = found(req);
        Instant now = clock.instant();
        Instant previousUntil = now.plus(settings.secretOverlap());
        String secret = SigningSecrets.generate();
        repository(req).rotate(subscription.id(), secret, now, previousUntil);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", subscription.id());
        json.put("secret", secret);
        json.put("previous_secret_expires_at", previousUntil);
        return ApiResponse.of(json);
    }

    private ApiResponse test(ApiRequest req) {
        var subscription = found(req);
        UUID deliveryId = history(req).queueTest(subscription.id(), clock.instant());
        return ApiResponse.of(Map.of("delivery_id", deliveryId, "event", EventCatalog.TEST_EVENT.name(),
                "status", "pending"));
    }

    private ApiResponse deliveries(ApiRequest req) {
        var subscription = found(req);
        var page = req.pageRequest();
        var state = req.query("status");
        var history = history(req);
        return ApiResponse.page(history.page(subscription.id(), state, page.limit(), page.offset()),
                Page.of(page, history.count(subscription.id(), state)));
    }

    private ApiResponse delivery(ApiRequest req) {
        var subscription = found(req);
        return ApiResponse.of(history(req).find(subscription.id(), req.pathId("delivery_id"))
                .orElseThrow(() -> ApiProblem.notFound("Delivery")));
    }

    private ApiResponse redeliver(ApiRequest req) {
        var subscription = found(req);
        UUID deliveryId = req.pathId("delivery_id");
        return switch (history(req).redeliver(subscription.id(), deliveryId, clock.instant())) {
            case QUEUED -> ApiResponse.of(Map.of("id", deliveryId, "status", "pending"));
            case IN_FLIGHT -> throw ApiProblem.conflict("delivery_in_flight",
                    "The delivery is being sent right now; look at its history once the attempt is recorded.");
            case NOT_FOUND -> throw ApiProblem.notFound("Delivery");
        };
    }

    private ApiResponse recover(ApiRequest req) {
        var subscription = found(req);
        Instant since = OffsetDateTime.parse(req.body().get("since").asText()).toInstant();
        int requeued = history(req).recover(subscription.id(), since, clock.instant());
        return ApiResponse.of(Map.of("requeued", requeued, "since", since));
    }

    private ApiResponse notices(ApiRequest req) {
        var page = req.pageRequest();
        var history = history(req);
        return ApiResponse.page(history.notices(page.limit(), page.offset()), Page.of(page, history.noticeCount()));
    }

    private SubscriptionRepository.Subscription found(ApiRequest req) {
        return repository(req).find(req.pathId("id")).orElseThrow(WebhookRoutes::subscriptionNotFound);
    }

    private String checkedUrl(String url, List<FieldError> errors) {
        try {
            guard.checkUrl(url);
        } catch (ReceiverGuard.Refused refused) {
            errors.add(new FieldError("/url", refused.rule(), refused.getMessage()));
        }
        return url;
    }

    private static void failIfAny(List<FieldError> errors) {
        if (!errors.isEmpty()) {
            throw ApiProblem.invalid(errors.size() == 1 ? errors.get(0).message()
                    : errors.size() + " fields are invalid", errors);
        }
    }

    private static ApiProblem subscriptionNotFound() {
        return ApiProblem.notFound("Webhook subscription");
    }

    private static SubscriptionRepository repository(ApiRequest req) {
        return new SubscriptionRepository(req.tx().handle(), req.workspaceId());
    }

    private static DeliveryHistory history(ApiRequest req) {
        return new DeliveryHistory(req.tx().handle(), req.workspaceId());
    }

    private static List<String> texts(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }

    private static String textOrNull(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }
}
