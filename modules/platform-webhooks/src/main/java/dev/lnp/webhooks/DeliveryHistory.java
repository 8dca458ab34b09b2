package dev.lnp.webhooks;

import static dev.lnp.webhooks.SubscriptionRepository.instant;

import dev.lnp.api.Json;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * A subscription's deliveries and attempts as the API shows them, and the requests a person makes about them
 * (redeliver, recover, test), in the caller's workspace transaction. The dispatcher is woken at commit.
 */
final class DeliveryHistory {

    private static final String DELIVERY_COLUMNS = """
            d.id, d.event_id, d.event_name, d.kind, d.state, d.attempts, d.next_attempt_at, d.last_attempt_at,
            d.last_status, d.last_error, d.created_at, d.completed_at, o.occurred_at""";

    private final Handle handle;
    private final UUID workspaceId;

    DeliveryHistory(Handle handle, UUID workspaceId) {
        this.handle = handle;
        this.workspaceId = workspaceId;
    }

    List<Map<String, Object>> page(UUID subscriptionId, Optional<String> state, int limit, long offset) {
        return handle.createQuery("SELECT " + DELIVERY_COLUMNS + """
                         FROM lnp_core.webhook_deliveries d JOIN lnp_core.outbox o ON o.id = d.event_id
                         WHERE d.workspace_id = :ws AND d.subscription_id = :sub
                           AND (CAST(:state AS text) IS NULL OR d.state = :state)
                         ORDER BY d.created_at DESC, d.id LIMIT :limit OFFSET :offset
                        """)
                .bind("ws", workspaceId).bind("sub", subscriptionId).bind("state", state.orElse(null))
                .bind("limit", limit).bind("offset", offset)
                .map((rs, ctx) -> delivery(rs)).list();
    }

    long count(UUID subscriptionId, Optional<String> state) {
        return handle.createQuery("""
                        SELECT count(*) FROM lnp_core.webhook_deliveries
                         WHERE workspace_id = :ws AND subscription_id = :sub
                           AND (CAST(:state AS text) IS NULL OR state = :state)
                        """)
                .bind("ws", workspaceId).bind("sub", subscriptionId).bind("state", state.orElse(null))
                .mapTo(Long.class).one();
    }

    /** One delivery with every attempt, including the start of each response body. */
    Optional<Map<String, Object>> find(UUID subscriptionId, UUID deliveryId) {
        Optional<Map<String, Object>> delivery = handle.createQuery("SELECT " + DELIVERY_COLUMNS + """
                         FROM lnp_core.webhook_deliveries d JOIN lnp_core.outbox o ON o.id = d.event_id
                         WHERE d.workspace_id = :ws AND d.subscription_id = :sub AND d.id = :id
                        """)
                .bind("ws", workspaceId).bind("sub", subscriptionId).bind("id", deliveryId)
                .map((rs, ctx) -> delivery(rs)).findOne();
        delivery.ifPresent(d -> d.put("attempt_history", handle.createQuery("""
                        SELECT attempt, started_at, duration_ms, status_code, outcome, error, response_body,
                               response_truncated
                          FROM lnp_core.webhook_attempts
                         WHERE workspace_id = :ws AND delivery_id = :id
                         ORDER BY id
                        """)
                .bind("ws", workspaceId).bind("id", deliveryId)
                .map((rs, ctx) -> attempt(rs)).list()));
        return delivery;
    }

    public enum Redelivery { QUEUED, IN_FLIGHT, NOT_FOUND }

    /**
     * Queues the delivery again, same id, as a new round of attempts starting now. A delivery being sent
     * right now is left alone: its attempt decides.
     */
    Redelivery redeliver(UUID subscriptionId, UUID deliveryId, Instant now) {
        int queued = handle.createUpdate("""
                        UPDATE lnp_core.webhook_deliveries
                           SET state = 'pending', round_attempts = 0, round_started_at = :now, next_attempt_at = :now,
                               completed_at = NULL
                         WHERE workspace_id = :ws AND subscription_id = :sub AND id = :id
                           AND (lease_until IS NULL OR lease_until <= :now)
                        """)
                .bind("ws", workspaceId).bind("sub", subscriptionId).bind("id", deliveryId).bind("now", now)
                .execute();
        if (queued == 1) {
            wakeDispatchers();
            return Redelivery.QUEUED;
        }
        boolean exists = handle.createQuery("""
                        SELECT EXISTS (SELECT 1 FROM lnp_core.webhook_deliveries
                                        WHERE workspace_id = :ws AND subscription_id = :sub AND id = :id)
                        """)
                .bind("ws", workspaceId).bind("sub", subscriptionId).bind("id", deliveryId)
                .mapTo(Boolean.class).one();
        return exists ? Redelivery.IN_FLIGHT : Redelivery.NOT_FOUND;
    }

    /** Queues again every failed delivery of the subscription created at or after {@code since}. */
    int recover(UUID subscriptionId, Instant since, Instant now) {
        int queued = handle.createUpdate("""
                        UPDATE lnp_core.webhook_deliveries
                           SET state = 'pending', round_attempts = 0, round_started_at = :now, next_attempt_at = :now,
                               completed_at = NULL
                         WHERE workspace_id = :ws AND subscription_id = :sub AND state = 'failed'
                           AND created_at >= :since
                        """)
                .bind("ws", workspaceId).bind("sub", subscriptionId).bind("since", since).bind("now", now)
                .execute();
        if (queued > 0) {
            wakeDispatchers();
        }
        return queued;
    }

    /**
     * A test delivery: an event of its own (already marked dispatched, so no other subscription gets it) and one
     * delivery to this subscription, sent even while the subscription is switched off.
     */
    UUID queueTest(UUID subscriptionId, Instant now) {
        String payload = Json.mapper().createObjectNode()
                .put("message", "This is a test delivery from the webhook settings.")
                .put("subscription_id", subscriptionId.toString()).toString();
        UUID eventId = handle.createQuery("""
                        INSERT INTO lnp_core.outbox (workspace_id, event_name, payload, occurred_at, dispatched_at)
                        VALUES (:ws, :name, CAST(:payload AS jsonb), :now, :now)
                        RETURNING id
                        """)
                .bind("ws", workspaceId).bind("name", EventCatalog.TEST_EVENT.name()).bind("payload", payload)
                .bind("now", now).mapTo(UUID.class).one();
        UUID deliveryId = UUID.randomUUID();
        handle.createUpdate("""
                        INSERT INTO lnp_core.webhook_deliveries (id, workspace_id, subscription_id, event_id, event_name,
                                    kind, state, round_started_at, next_attempt_at, created_at)
                        VALUES (:id, :ws, :sub, :event, :name, 'test', 'pending', :now, :now, :now)
                        """)
                .bind("id", deliveryId).bind("ws", workspaceId).bind("sub", subscriptionId).bind("event", eventId)
                .bind("name", EventCatalog.TEST_EVENT.name()).bind("now", now).execute();
        wakeDispatchers();
        return deliveryId;
    }

    List<Map<String, Object>> notices(int limit, long offset) {
        return handle.createQuery("""
                        SELECT id, kind, subject_id, recipient, message, created_at, emailed_at
                          FROM lnp_core.notices WHERE workspace_id = :ws
                         ORDER BY created_at DESC, id LIMIT :limit OFFSET :offset
                        """)
                .bind("ws", workspaceId).bind("limit", limit).bind("offset", offset)
                .map((rs, ctx) -> {
                    Map<String, Object> notice = new LinkedHashMap<>();
                    notice.put("id", rs.getObject("id", UUID.class));
                    notice.put("kind", rs.getString("kind"));
                    notice.put("subject_id", rs.getObject("subject_id", UUID.class));
                    notice.put("recipient", rs.getString("recipient"));
                    notice.put("message", rs.getString("message"));
                    notice.put("created_at", instant(rs, "created_at"));
                    notice.put("emailed_at", instant(rs, "emailed_at"));
                    return notice;
                }).list();
    }

    long noticeCount() {
        return handle.createQuery("SELECT count(*) FROM lnp_core.notices WHERE workspace_id = :ws")
                .bind("ws", workspaceId).mapTo(Long.class).one();
    }

    /**
     * Delivered at commit; a dispatcher that misses it still polls. Its empty payload wakes the claims as well as
     * the fan-out: these deliveries have no outbox row for a fan-out to find.
     */
    private void wakeDispatchers() {
        handle.createQuery("SELECT pg_notify(:channel, '')").bind("channel", Dispatcher.CHANNEL)
                .mapTo(String.class).list();
    }

    private static Map<String, Object> delivery(ResultSet rs) throws SQLException {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("id", rs.getObject("id", UUID.class));
        d.put("event_id", rs.getObject("event_id", UUID.class));
        d.put("event", rs.getString("event_name"));
        d.put("test", "test".equals(rs.getString("kind")));
        d.put("status", rs.getString("state"));
        d.put("attempts", rs.getInt("attempts"));
        d.put("occurred_at", instant(rs, "occurred_at"));
        d.put("created_at", instant(rs, "created_at"));
        d.put("next_attempt_at", instant(rs, "next_attempt_at"));
        d.put("last_attempt_at", instant(rs, "last_attempt_at"));
        d.put("last_status_code", (Integer) rs.getObject("last_status"));
        d.put("last_error", rs.getString("last_error"));
        d.put("completed_at", instant(rs, "completed_at"));
        return d;
    }

    private static Map<String, Object> attempt(ResultSet rs) throws SQLException {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("attempt", rs.getInt("attempt"));
        a.put("at", instant(rs, "started_at"));
        a.put("duration_ms", rs.getInt("duration_ms"));
        a.put("status_code", (Integer) rs.getObject("status_code"));
        a.put("outcome", rs.getString("outcome"));
        a.put("error", rs.getString("error"));
        a.put("response_body", rs.getString("response_body"));
        a.put("response_truncated", rs.getBoolean("response_truncated"));
        return a;
    }
}
