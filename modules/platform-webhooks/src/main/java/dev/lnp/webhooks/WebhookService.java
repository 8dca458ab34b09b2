package dev.lnp.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.outbound.OutboundGuard;
import dev.lnp.api.outbound.OutboundRefusal;
import dev.lnp.api.Json;
import dev.lnp.api.JsonSchemas;
import dev.lnp.api.internal.http.JsonValidation;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.internal.platform.PluginCatalog;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * What a person or a key may do with a workspace's webhooks, in the caller's workspace transaction: the one
 * place their rules live (receiver URL guard, event names, secret overlap). The {@code /api/v1/webhooks} routes
 * and the Webhooks pages both call it. A refused request is an {@link ApiProblem} naming the field.
 */
public final class WebhookService {

    /** A new subscription with its signing secret, which is shown only this once. */
    public record Created(SubscriptionRepository.Subscription subscription, String secret) {
    }

    /** A rotated secret: the new one, and until when the previous one still signs. */
    public record Rotated(UUID subscriptionId, String secret, Instant previousSecretExpiresAt) {
    }

    private final EventCatalog catalog;
    private volatile OutboundGuard guard;
    private final WebhookSettings settings;
    private final Clock clock;
    private final JsonNode createSchema;
    private final JsonNode patchSchema;
    private final JsonNode recoverSchema;
    private final JsonValidation validation;

    public WebhookService(PluginCatalog plugins, JsonValidation validation, WebhookSettings settings, Clock clock) {
        this(new EventCatalog(plugins), validation, settings, clock);
    }

    WebhookService(EventCatalog catalog, JsonValidation validation, WebhookSettings settings, Clock clock) {
        this.validation = validation;
        this.catalog = catalog;
        this.settings = settings;
        this.clock = clock;
        this.createSchema = Json.resource(WebhookService.class, "webhook-schemas/subscription-create.json");
        this.patchSchema = JsonSchemas.patchOf(createSchema, "Webhook subscription changes",
                Set.of("url", "events", "enabled", "description"));
        this.recoverSchema = Json.resource(WebhookService.class, "webhook-schemas/recover.json");
    }

    public EventCatalog catalog() {
        return catalog;
    }

    /** The workspace's event catalog: events of the modules it has on (the catalog route and the console). */
    public List<Map<String, Object>> catalogEntries(WorkspaceTx tx) {
        return catalog.entries(disabledModules(tx));
    }

    /** The events a subscription of this workspace may name: those of the modules it has on. */
    public List<PluginCatalog.Event> events(WorkspaceTx tx) {
        return catalog.events(disabledModules(tx));
    }

    /**
     * The modules (plugin ids) the workspace switched off; read in its transaction (as the tenant role, through
     * a function that shows only this), so a switch counts at once.
     */
    private static Set<String> disabledModules(WorkspaceTx tx) {
        return tx.handle().createQuery("SELECT lnp_core.current_workspace_disabled_modules()")
                .map((rs, ctx) -> {
                    java.sql.Array modules = rs.getArray(1);
                    return modules == null ? Set.<String>of()
                            : Set.copyOf(java.util.Arrays.asList((String[]) modules.getArray()));
                })
                .findOne().orElse(Set.of());
    }

    /** The body schema of a new subscription: the API's route and the page's form both check it. */
    public JsonNode createSchema() {
        return createSchema;
    }

    /** The body schema of a change (nothing required, null clears a value). */
    public JsonNode patchSchema() {
        return patchSchema;
    }

    JsonNode recoverSchema() {
        return recoverSchema;
    }

    /**
     * Checks a body against the create (or, with {@code patch}, the change) schema: what the API pipeline does
     * before its handler runs, for callers that build the body themselves (the console's forms).
     */
    public void checkShape(JsonNode body, boolean patch) {
        failIfAny(validation.validate(patch ? patchSchema : createSchema, body));
    }

    /** Checks a recover body ({@code since}) against the recover schema, as {@link #checkShape} does for the others. */
    public void checkRecoverShape(JsonNode body) {
        failIfAny(validation.validate(recoverSchema, body));
    }

    public List<SubscriptionRepository.Subscription> list(WorkspaceTx tx, int limit, long offset) {
        return repository(tx).page(limit, offset);
    }

    public long count(WorkspaceTx tx) {
        return repository(tx).count();
    }

    /** @param body a create body already of the schema's shape */
    public Created create(WorkspaceTx tx, JsonNode body) {
        List<FieldError> errors = new ArrayList<>();
        String url = checkedUrl(body.get("url").asText(), errors);
        List<String> events = catalog.normalize(texts(body.get("events")), "/events", errors, disabledModules(tx));
        failIfAny(errors);
        Instant now = clock.instant();
        var subscriptions = repository(tx);
        var created = subscriptions.insert(url, events, textOrNull(body.get("description")),
                body.path("enabled").asBoolean(true), now);
        String secret = SigningSecrets.generate();
        subscriptions.addSecret(created.id(), secret, now);
        return new Created(created, secret);
    }

    public SubscriptionRepository.Subscription find(WorkspaceTx tx, UUID id) {
        return repository(tx).find(id).orElseThrow(WebhookService::subscriptionNotFound);
    }

    /** @param body a change body already of the patch schema's shape; absent fields stay as they are */
    public SubscriptionRepository.Subscription update(WorkspaceTx tx, UUID id, JsonNode body) {
        List<FieldError> errors = new ArrayList<>();
        String url = body.has("url") ? checkedUrl(body.get("url").asText(), errors) : null;
        List<String> events = body.has("events")
                ? catalog.normalize(texts(body.get("events")), "/events", errors, disabledModules(tx)) : null;
        failIfAny(errors);
        var changes = new SubscriptionRepository.Changes(url, events, body.has("description"),
                textOrNull(body.get("description")), body.has("enabled") ? body.get("enabled").asBoolean() : null);
        return repository(tx).update(id, changes, clock.instant()).orElseThrow(WebhookService::subscriptionNotFound);
    }

    public void delete(WorkspaceTx tx, UUID id) {
        if (!repository(tx).delete(id)) {
            throw subscriptionNotFound();
        }
    }

    public Rotated rotateSecret(WorkspaceTx tx, UUID id) {
        var subscription = find(tx, id);
        Instant now = clock.instant();
        Instant previousUntil = now.plus(settings.secretOverlap());
        String secret = SigningSecrets.generate();
        repository(tx).rotate(subscription.id(), secret, now, previousUntil);
        return new Rotated(subscription.id(), secret, previousUntil);
    }

    /** Queues a {@code webhooks.test} delivery to the subscription; returns the delivery's id. */
    public UUID sendTest(WorkspaceTx tx, UUID id) {
        var subscription = find(tx, id);
        return history(tx).queueTest(subscription.id(), clock.instant());
    }

    public List<Map<String, Object>> deliveries(WorkspaceTx tx, UUID id, Optional<String> state, int limit,
            long offset) {
        return history(tx).page(find(tx, id).id(), state, limit, offset);
    }

    public long deliveryCount(WorkspaceTx tx, UUID id, Optional<String> state) {
        return history(tx).count(find(tx, id).id(), state);
    }

    /** One delivery with {@code attempt_history}, every attempt of it. */
    public Map<String, Object> delivery(WorkspaceTx tx, UUID id, UUID deliveryId) {
        return history(tx).find(find(tx, id).id(), deliveryId).orElseThrow(() -> ApiProblem.notFound("Delivery"));
    }

    /** Queues the delivery again with the same id; a delivery being sent right now is a conflict. */
    public void redeliver(WorkspaceTx tx, UUID id, UUID deliveryId) {
        var subscription = find(tx, id);
        switch (history(tx).redeliver(subscription.id(), deliveryId, clock.instant())) {
            case QUEUED -> {
            }
            case IN_FLIGHT -> throw ApiProblem.conflict("delivery_in_flight",
                    "The delivery is being sent right now; look at its history once the attempt is recorded.");
            case NOT_FOUND -> throw ApiProblem.notFound("Delivery");
        }
    }

    /** Queues again every failed delivery created at or after {@code since}; returns how many. */
    public int recover(WorkspaceTx tx, UUID id, Instant since) {
        var subscription = find(tx, id);
        return history(tx).recover(subscription.id(), since, clock.instant());
    }

    public List<Map<String, Object>> notices(WorkspaceTx tx, int limit, long offset) {
        return history(tx).notices(limit, offset);
    }

    public long noticeCount(WorkspaceTx tx) {
        return history(tx).noticeCount();
    }

    /**
     * The platform's outbound guard, with the webhooks' own allowed networks; it is offered once the database is
     * migrated, after the routes that use it were declared.
     */
    public void useGuard(OutboundGuard outboundGuard) {
        this.guard = outboundGuard;
    }

    private String checkedUrl(String url, List<FieldError> errors) {
        OutboundGuard current = guard;
        if (current == null) {
            throw new IllegalStateException("a webhook URL is checked before the outbound guard was offered");
        }
        try {
            current.check(url);
        } catch (OutboundRefusal refused) {
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

    private static SubscriptionRepository repository(WorkspaceTx tx) {
        return new SubscriptionRepository(tx.handle(), tx.workspaceId());
    }

    private static DeliveryHistory history(WorkspaceTx tx) {
        return new DeliveryHistory(tx.handle(), tx.workspaceId());
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
