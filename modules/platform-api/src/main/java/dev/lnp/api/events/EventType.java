package dev.lnp.api.events;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * An event a plugin emits, e.g. {@code crm.contact.created}. Aliases are older names that subscriptions may
 * still use; deliveries always carry the canonical name.
 */
public record EventType(String name, String description, JsonNode payloadSchema, List<String> aliases) {

    public EventType {
        Objects.requireNonNull(name, "name");
        aliases = List.copyOf(aliases);
    }
}
