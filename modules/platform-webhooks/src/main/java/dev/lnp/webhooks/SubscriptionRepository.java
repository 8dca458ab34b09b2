package dev.lnp.webhooks;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * Subscriptions and their secrets, read and written in the caller's workspace transaction (row-level security
 * applies; every query still names the workspace).
 */
public final class SubscriptionRepository {

    /** A subscription as stored; the secret is never part of it. */
    public record Subscription(UUID id, String url, List<String> events, String description, boolean enabled,
            String disabledReason, Instant failingSince, Instant createdAt, Instant updatedAt) {

        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("id", id);
            json.put("url", url);
            json.put("events", events);
            json.put("description", description);
            json.put("enabled", enabled);
            json.put("disabled_reason", disabledReason);
            json.put("failing_since", failingSince);
            json.put("created_at", createdAt);
            json.put("updated_at", updatedAt);
            return json;
        }
    }

    /** The fields a PATCH may change; null means "leave as is" except for {@code description}. */
    public record Changes(String url, List<String> events, boolean descriptionGiven, String description, Boolean enabled) {
    }

    private static final String COLUMNS = """
            id, url, events, description, enabled, disabled_reason, failing_since, created_at, updated_at""";

    private final Handle handle;
    private final UUID workspaceId;

    SubscriptionRepository(Handle handle, UUID workspaceId) {
        this.handle = handle;
        this.workspaceId = workspaceId;
    }

    Subscription insert(String url, List<String> events, String description, boolean enabled, Instant now) {
        return handle.createQuery("""
                        INSERT INTO lnp_core.webhook_subscriptions
                               (workspace_id, url, events, description, enabled, created_at, updated_at)
                        VALUES (:ws, :url, :events, :description, :enabled, :now, :now)
                        RETURNING\s""" + COLUMNS)
                .bind("ws", workspaceId).bind("url", url).bindArray("events", String.class, events)
                .bind("description", description).bind("enabled", enabled).bind("now", now)
                .map((rs, ctx) -> read(rs)).one();
    }

    void addSecret(UUID subscriptionId, String secret, Instant now) {
        handle.createUpdate("""
                        INSERT INTO lnp_core.webhook_secrets (subscription_id, workspace_id, secret, created_at)
                        VALUES (:id, :ws, :secret, :now)
                        """)
                .bind("id", subscriptionId).bind("ws", workspaceId).bind("secret", secret).bind("now", now)
                .execute();
    }

    /**
     * Makes {@code secret} the signing secret. The one it replaces keeps signing until {@code previousUntil};
     * any older one still in its overlap stops now, so at most two secrets sign at any time.
     */
    void rotate(UUID subscriptionId, String secret, Instant now, Instant previousUntil) {
        handle.createUpdate("""
                        UPDATE lnp_core.webhook_secrets SET expires_at = :now
                         WHERE workspace_id = :ws AND subscription_id = :id AND expires_at > :now
                        """)
                .bind("ws", workspaceId).bind("id", subscriptionId).bind("now", now).execute();
        handle.createUpdate("""
                        UPDATE lnp_core.webhook_secrets SET expires_at = :until
                         WHERE workspace_id = :ws AND subscription_id = :id AND expires_at IS NULL
                        """)
                .bind("ws", workspaceId).bind("id", subscriptionId).bind("until", previousUntil).execute();
        addSecret(subscriptionId, secret, now);
    }

    Optional<Subscription> find(UUID id) {
        return handle.createQuery("SELECT " + COLUMNS + """
                         FROM lnp_core.webhook_subscriptions WHERE workspace_id = :ws AND id = :id
                        """)
                .bind("ws", workspaceId).bind("id", id).map((rs, ctx) -> read(rs)).findOne();
    }

    List<Subscription> page(int limit, long offset) {
        return handle.createQuery("SELECT " + COLUMNS + """
                         FROM lnp_core.webhook_subscriptions WHERE workspace_id = :ws
                         ORDER BY created_at DESC, id LIMIT :limit OFFSET :offset
                        """)
                .bind("ws", workspaceId).bind("limit", limit).bind("offset", offset)
                .map((rs, ctx) -> read(rs)).list();
    }

    long count() {
        return handle.createQuery("SELECT count(*) FROM lnp_core.webhook_subscriptions WHERE workspace_id = :ws")
                .bind("ws", workspaceId).mapTo(Long.class).one();
    }

    /** Applies the changes; switching a subscription back on forgets its failure streak and the reason it was off. */
    Optional<Subscription> update(UUID id, Changes changes, Instant now) {
        return handle.createQuery("""
                        UPDATE lnp_core.webhook_subscriptions
                           SET url = COALESCE(CAST(:url AS text), url),
                               events = COALESCE(CAST(:events AS text[]), events),
                               description = CASE WHEN :descriptionGiven THEN CAST(:description AS text)
                                                  ELSE description END,
                               enabled = COALESCE(CAST(:enabled AS boolean), enabled),
                               disabled_reason = CASE WHEN CAST(:enabled AS boolean) IS NULL THEN disabled_reason
                                                      ELSE NULL END,
                               failing_since = CASE WHEN CAST(:enabled AS boolean) AND NOT enabled THEN NULL
                                                    ELSE failing_since END,
                               updated_at = :now
                         WHERE workspace_id = :ws AND id = :id
                        RETURNING\s""" + COLUMNS)
                .bind("ws", workspaceId).bind("id", id).bind("url", changes.url())
                .bind("events", changes.events() == null ? null : changes.events().toArray(String[]::new))
                .bind("descriptionGiven", changes.descriptionGiven()).bind("description", changes.description())
                .bind("enabled", changes.enabled()).bind("now", now)
                .map((rs, ctx) -> read(rs)).findOne();
    }

    boolean delete(UUID id) {
        return handle.createUpdate("DELETE FROM lnp_core.webhook_subscriptions WHERE workspace_id = :ws AND id = :id")
                .bind("ws", workspaceId).bind("id", id).execute() == 1;
    }

    private static Subscription read(ResultSet rs) throws SQLException {
        return new Subscription(rs.getObject("id", UUID.class), rs.getString("url"), strings(rs.getArray("events")),
                rs.getString("description"), rs.getBoolean("enabled"), rs.getString("disabled_reason"),
                instant(rs, "failing_since"), instant(rs, "created_at"), instant(rs, "updated_at"));
    }

    static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
