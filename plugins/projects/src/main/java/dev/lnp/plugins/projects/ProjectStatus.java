package dev.lnp.plugins.projects;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Project status keys. Older clients still send the keys of earlier versions; they are accepted and stored as
 * the current key, so a response always shows a current key. The create schema's enum lists the same keys.
 */
final class ProjectStatus {

    static final List<String> CURRENT = List.of("planned", "active", "paused", "completed", "cancelled");

    static final Map<String, String> LEGACY = legacy();

    static final String DEFAULT = "planned";

    private ProjectStatus() {
    }

    private static Map<String, String> legacy() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put("not_started", "planned");
        map.put("backlog", "planned");
        map.put("in_progress", "active");
        map.put("on_hold", "paused");
        map.put("done", "completed");
        map.put("archived", "completed");
        map.put("canceled", "cancelled");
        return Map.copyOf(map);
    }

    /** The current key for a key the schema accepted. */
    static String normalize(String key) {
        return CURRENT.contains(key) ? key : LEGACY.getOrDefault(key, key);
    }
}
