package dev.lnp.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.events.EventType;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.internal.platform.PluginCatalog;
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
 * event, or {@code *} for everything. Events of a module (plugin) the workspace switched off are not in its
 * catalog and cannot be subscribed to (modules switched off for the deployment are not loaded, so their events
 * are in no catalog).
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

    private final PluginCatalog plugins;

    public EventCatalog(PluginCatalog plugins) {
        this.plugins = plugins;
    }

    /** Every event, in registration order, as the catalog route shows it. */
    public List<Map<String, Object>> entries() {
        return entries(Set.of());
    }

    /** The events of the modules not in {@code disabledModules}, in registration order. */
    public List<PluginCatalog.Event> events(Set<String> disabledModules) {
        return plugins.events().stream().filter(e -> !disabledModules.contains(e.pluginId())).toList();
    }

    /** The catalog of a workspace that switched {@code disabledModules} off, as the catalog route shows it. */
    public List<Map<String, Object>> entries(Set<String> disabledModules) {
        List<Map<String, Object>> entries = new ArrayList<>();
        for (PluginCatalog.Event event : events(disabledModules)) {
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
        return normalize(requested, pointer, errors, Set.of());
    }

    /**
     * As {@link #normalize(List, String, List)} for a workspace that switched {@code disabledModules} off: a name
     * (or alias) of an event of such a module is refused naming the module, and a wildcard must match an event of
     * a module that is on.
     */
    public List<String> normalize(List<String> requested, String pointer, List<FieldError> errors,
            Set<String> disabledModules) {
        List<PluginCatalog.Event> enabled = events(disabledModules);
        Set<String> normalized = new LinkedHashSet<>();
        for (int i = 0; i < requested.size(); i++) {
            String name = requested.get(i);
            String problem = null;
            if (name.equals(ALL)) {
                normalized.add(ALL);
            } else if (name.endsWith(".*")) {
                String prefix = name.substring(0, name.length() - 1);
                if (name.length() > 2 && enabled.stream().anyMatch(e -> e.type().name().startsWith(prefix))) {
                    normalized.add(name);
                } else if (name.length() > 2 && plugins.events().stream()
                        .anyMatch(e -> e.type().name().startsWith(prefix))) {
                    problem = "every event " + name + " matches belongs to a module switched off for this workspace ("
                            + String.join(", ", modulesOf(prefix)) + ")";
                } else {
                    problem = "no event name starts with " + prefix + " (wildcards match canonical names)";
                }
            } else if (name.contains("*")) {
                problem = "a wildcard is a name prefix followed by .* (e.g. crm.*), or * alone";
            } else {
                var canonical = plugins.canonicalEvent(name);
                String module = canonical.map(this::moduleOf).orElse(null);
                if (canonical.isPresent() && disabledModules.contains(module)) {
                    problem = "event " + name + " belongs to the module " + module
                            + ", which is switched off for this workspace";
                } else if (canonical.isPresent()) {
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

    private String moduleOf(String canonicalName) {
        return plugins.events().stream().filter(e -> e.type().name().equals(canonicalName))
                .map(PluginCatalog.Event::pluginId).findFirst().orElse(null);
    }

    private List<String> modulesOf(String prefix) {
        return plugins.events().stream().filter(e -> e.type().name().startsWith(prefix))
                .map(PluginCatalog.Event::pluginId).distinct().toList();
    }
}
