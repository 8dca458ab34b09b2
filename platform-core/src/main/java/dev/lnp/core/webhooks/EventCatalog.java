package dev.lnp.core.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.events.EventType;
import dev.lnp.api.http.FieldError;
import dev.lnp.core.plugins.PluginRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The events a subscription can name, read from the registry (the one place plugins declare them), and the
 * rules for a subscription's event list: a canonical name, an alias (stored as its canonical name, so a name
 * and its alias are one subscription entry and one delivery), a wildcard {@code prefix.*} matching at least one
 * event, or {@code *} for everything.
 */
public final class EventCatalog {

    public static final String ALL = "*";

    /** The payload of {@code POST …/test}; registered by the core like any event. */
    public static final EventType TEST_EVENT = new EventType("webhooks.test",
            "A test delivery, sent only by POST /api/v1/webhooks/subscriptions/{id}/test",
            Json.parse("""
                    {"type": "object", "additionalProperties": false, "required": ["message", "subscription_id"],
                     "properties": {"message": {"type": "string"},
                                    "subscription_id": {"type": "string", "format": "uuid"}}}
                    """), List.of());

    private final PluginRegistry registry;

    public EventCatalog(PluginRegistry registry) {
        this.registry = registry;
    }

    /** Every event, in registration order, as the catalog route shows it. */
    public List<Map<String, Object>> entries() {
        List<Map<String, Object>> entries = new ArrayList<>();
        for (PluginRegistry.RegisteredEvent event : registry.events()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", event.type().name());
            entry.put("plugin", event.pluginId());
            entry.put("description", event.type().description());
            entry.put("aliases", event.type().aliases());
            JsonNode schema = event.type().payloadSchema();
            entry.put("payload_schema", schema == null ? Json.object() : schema);
            entries.add(entry);
        }
        return entries;
    }

    /**
     * The subscription's event list in stored form (canonical names and wildcards, no repeats). Each entry that
     * matches no event is added to {@code errors}, pointing at it.
     */
    public List<String> normalize(List<String> requested, String pointer, List<FieldError> errors) {
        Set<String> normalized = new LinkedHashSet<>();
        for (int i = 0; i < requested.size(); i++) {
            String name = requested.get(i);
            String problem = null;
            if (name.equals(ALL)) {
                normalized.add(ALL);
            } else if (name.endsWith(".*")) {
                String prefix = name.substring(0, name.length() - 1);
                if (name.length() > 2 && registry.events().stream().anyMatch(e -> e.type().name().startsWith(prefix))) {
                    normalized.add(name);
                } else {
                    problem = "no event name starts with " + prefix + " (wildcards match canonical names)";
                }
            } else if (name.contains("*")) {
                problem = "a wildcard is a name prefix followed by .* (e.g. crm.*), or * alone";
            } else {
                var canonical = registry.canonicalEvent(name);
                if (canonical.isPresent()) {
                    normalized.add(canonical.get());
                } else {
                    problem = "unknown event " + name + "; GET /api/v1/webhooks/events lists them";
                }
            }
            if (problem != null) {
                errors.add(new FieldError(pointer + "/" + i, "event", problem));
            }
        }
        return List.copyOf(normalized);
    }
}
