package dev.lnp.core.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.events.EventPublisher;
import dev.lnp.api.events.StatementEvent;
import dev.lnp.core.plugins.PluginRegistry;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** Publishes into the outbox through the caller's handle, so the event commits or rolls back with the change. */
public final class OutboxPublisher implements EventPublisher {

    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 256 * 1024;

    /**
     * The largest event payload a plugin may publish, so that what reads events (a webhook body) stays
     * bounded. The outbox owns the limit; its setting keeps the name it had when webhooks were part of the kernel.
     */
    public static int maxPayloadBytes(dev.lnp.core.config.PlatformConfig config) {
        return config.getInt("lnp.webhooks.max_payload_bytes", DEFAULT_MAX_PAYLOAD_BYTES);
    }

    private final Handle handle;
    private final UUID workspaceId;
    private final PluginRegistry registry;
    private final int maxPayloadBytes;
    private boolean wrote;

    public OutboxPublisher(Handle handle, UUID workspaceId, PluginRegistry registry, int maxPayloadBytes) {
        this.handle = handle;
        this.workspaceId = workspaceId;
        this.registry = registry;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    @Override
    public void publish(String eventName, Object data) {
        String canonical = canonical(eventName);
        String payload;
        try {
            payload = Json.mapper().writeValueAsString(data);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Event payload of " + eventName + " is not serializable", e);
        }
        checkSize(canonical, payload.getBytes(java.nio.charset.StandardCharsets.UTF_8).length, maxPayloadBytes);
        handle.createUpdate("""
                        INSERT INTO lnp_core.outbox (workspace_id, event_name, payload)
                        VALUES (:workspace, :name, CAST(:payload AS jsonb))
                        """)
                .bind("workspace", workspaceId)
                .bind("name", canonical)
                .bind("payload", payload)
                .execute();
        wrote = true;
    }

    /** Whether this transaction wrote (or gave a statement the step to write) an event. */
    public boolean wrote() {
        return wrote;
    }

    @Override
    public StatementEvent inStatement(String eventName) {
        StatementEvent event = new OutboxStatementEvent(workspaceId, canonical(eventName), maxPayloadBytes);
        wrote = true;
        return event;
    }

    private String canonical(String eventName) {
        return registry.canonicalEvent(eventName).orElseThrow(
                () -> new IllegalArgumentException("Event " + eventName + " is not registered by any plugin"));
    }

    /**
     * Refused in the plugin's transaction, so the change does not commit without its event. Client data can drive
     * the size (free text, custom fields), so this is the client's 413, not a server fault.
     */
    static void checkSize(String canonical, long size, int maxPayloadBytes) {
        if (size > maxPayloadBytes) {
            throw new ApiProblem(413, "payload_too_large", "Payload too large", "This change would publish a "
                    + canonical + " event of " + size + " bytes; events are limited to " + maxPayloadBytes
                    + " bytes (lnp.webhooks.max_payload_bytes). Send less data in one change.");
        }
    }
}
