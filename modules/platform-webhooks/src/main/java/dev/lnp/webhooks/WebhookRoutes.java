package dev.lnp.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.Page;
import dev.lnp.api.http.QueryParam;
import dev.lnp.api.http.RouteSpec;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The webhook routes: subscriptions, their secrets and delivery history, the event catalog and the notices.
 * Every route runs in the caller's workspace transaction; an id of another workspace is not found. The rules live
 * in {@link WebhookService}, which the console's Webhooks pages call too.
 */
public final class WebhookRoutes {

    public static final String READ = "webhooks.read";
    public static final String WRITE = "webhooks.write";
    static final String BASE = "/api/v1/webhooks";
    static final String SUBSCRIPTIONS = BASE + "/subscriptions";
    public static final List<String> STATES = List.of("pending", "delivered", "failed");

    /** What the routes answer: files under {@code webhook-schemas/}, published in the OpenAPI document. */
    private static final JsonNode SUBSCRIPTION = schema("subscription.json");
    private static final JsonNode DELIVERY = schema("delivery.json");
    private static final JsonNode QUEUED = schema("delivery-queued.json");

    private final WebhookService service;

    public WebhookRoutes(WebhookService service) {
        this.service = service;
    }

    public List<RouteSpec> routes() {
        String one = SUBSCRIPTIONS + "/{id}";
        return List.of(
                RouteSpec.get(BASE + "/events").scope(READ)
                        .summary("Every event a subscription can name (those of the workspace's modules that are on), "
                                + "with its payload schema and aliases")
                        .returns(schema("event-types.json"))
                        .handler(req -> ApiResponse.of(service.catalogEntries(req.tx()))),
                RouteSpec.get(SUBSCRIPTIONS).scope(READ).paginated()
                        .returns(SUBSCRIPTION).summary("List webhook subscriptions, newest first").handler(this::list),
                RouteSpec.post(SUBSCRIPTIONS).scope(WRITE).body(service.createSchema())
                        .returns(SUBSCRIPTION).summary("Create a subscription; the answer carries its signing secret, shown only once")
                        .handler(this::create),
                RouteSpec.get(one).scope(READ).returns(SUBSCRIPTION).summary("One subscription").handler(this::get),
                RouteSpec.patch(one).scope(WRITE).body(service.patchSchema())
                        .returns(SUBSCRIPTION).summary("Change a subscription's URL, events, description or enabled state")
                        .handler(this::update),
                RouteSpec.delete(one).scope(WRITE).status(204)
                        .summary("Delete a subscription with its delivery history").handler(this::delete),
                RouteSpec.post(one + "/rotate-secret").scope(WRITE).status(200)
                        .returns(schema("secret-rotation.json")).summary("Issue a new signing secret; the previous one keeps signing for the overlap")
                        .handler(this::rotate),
                RouteSpec.post(one + "/test").scope(WRITE).status(202)
                        .returns(QUEUED).summary("Send a webhooks.test delivery to the receiver").handler(this::test),
                RouteSpec.get(one + "/deliveries").scope(READ).paginated()
                        .query(QueryParam.oneOf("status", STATES, "Keep deliveries in this state"))
                        .returns(DELIVERY).summary("The subscription's deliveries, newest first").handler(this::deliveries),
                RouteSpec.get(one + "/deliveries/{delivery_id}").scope(READ)
                        .returns(DELIVERY).summary("One delivery with every attempt").handler(this::delivery),
                RouteSpec.post(one + "/deliveries/{delivery_id}/redeliver").scope(WRITE).status(202)
                        .returns(QUEUED).summary("Send a delivery again, with the same delivery id").handler(this::redeliver),
                RouteSpec.post(one + "/recover").scope(WRITE).status(202).body(service.recoverSchema())
                        .returns(schema("recovery.json")).summary("Send again every failed delivery created since a time").handler(this::recover),
                RouteSpec.get(BASE + "/notices").scope(READ).paginated()
                        .returns(schema("notice.json")).summary("Notices for the workspace owner, e.g. a subscription switched off")
                        .handler(this::notices));
    }

    private static JsonNode schema(String name) {
        return Json.resource(WebhookRoutes.class, "webhook-schemas/" + name);
    }

    private ApiResponse list(ApiRequest req) {
        var page = req.pageRequest();
        List<Map<String, Object>> items = service.list(req.tx(), page.limit(), page.offset()).stream()
                .map(SubscriptionRepository.Subscription::toJson).toList();
        return ApiResponse.page(items, Page.of(page, service.count(req.tx())));
    }

    private ApiResponse create(ApiRequest req) {
        var created = service.create(req.tx(), req.body());
        Map<String, Object> json = created.subscription().toJson();
        json.put("secret", created.secret());
        return ApiResponse.of(json);
    }

    private ApiResponse get(ApiRequest req) {
        return ApiResponse.of(service.find(req.tx(), req.pathId("id")).toJson());
    }

    private ApiResponse update(ApiRequest req) {
        return ApiResponse.of(service.update(req.tx(), req.pathId("id"), req.body()).toJson());
    }

    private ApiResponse delete(ApiRequest req) {
        service.delete(req.tx(), req.pathId("id"));
        return ApiResponse.status(204, null);
    }

    private ApiResponse rotate(ApiRequest req) {
        var rotated = service.rotateSecret(req.tx(), req.pathId("id"));
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", rotated.subscriptionId());
        json.put("secret", rotated.secret());
        json.put("previous_secret_expires_at", rotated.previousSecretExpiresAt());
        return ApiResponse.of(json);
    }

    private ApiResponse test(ApiRequest req) {
        UUID deliveryId = service.sendTest(req.tx(), req.pathId("id"));
        return ApiResponse.of(Map.of("delivery_id", deliveryId, "event", EventCatalog.TEST_EVENT.name(),
                "status", "pending"));
    }

    private ApiResponse deliveries(ApiRequest req) {
        var page = req.pageRequest();
        var state = req.query("status");
        UUID id = req.pathId("id");
        return ApiResponse.page(service.deliveries(req.tx(), id, state, page.limit(), page.offset()),
                Page.of(page, service.deliveryCount(req.tx(), id, state)));
    }

    private ApiResponse delivery(ApiRequest req) {
        return ApiResponse.of(service.delivery(req.tx(), req.pathId("id"), req.pathId("delivery_id")));
    }

    private ApiResponse redeliver(ApiRequest req) {
        UUID deliveryId = req.pathId("delivery_id");
        service.redeliver(req.tx(), req.pathId("id"), deliveryId);
        return ApiResponse.of(Map.of("id", deliveryId, "status", "pending"));
    }

    private ApiResponse recover(ApiRequest req) {
        Instant since = OffsetDateTime.parse(req.body().get("since").asText()).toInstant();
        int requeued = service.recover(req.tx(), req.pathId("id"), since);
        return ApiResponse.of(Map.of("requeued", requeued, "since", since));
    }

    private ApiResponse notices(ApiRequest req) {
        var page = req.pageRequest();
        return ApiResponse.page(service.notices(req.tx(), page.limit(), page.offset()),
                Page.of(page, service.noticeCount(req.tx())));
    }
}
