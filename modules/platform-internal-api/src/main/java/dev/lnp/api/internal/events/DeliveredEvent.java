package dev.lnp.api.internal.events;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.UUID;

/**
 * An event from the outbox handed to an in-process subscriber ({@link Subscriptions#subscribe}).
 *
 * @param id the outbox row's id: the same event may come more than once, so handlers dedupe on it
 */
public record DeliveredEvent(UUID id, UUID workspaceId, String name, JsonNode payload, Instant occurredAt) {
}
