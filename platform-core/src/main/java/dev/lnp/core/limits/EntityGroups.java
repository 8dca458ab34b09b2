package dev.lnp.core.limits;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.mcp.EntityRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A tool call's entities as the audit stores them ({@code lnp_core.tool_calls.entity_groups}): consecutive refs of
 * one type and action share one object, {@code [{"type": "contact", "action": "read", "ids": ["…", …]}]}, in the
 * call's order. A list call names every row it read, fifty refs of one type and action: one object per ref was
 * twice the text for the node to write and the driver to send, and cost PostgreSQL about three times as much to
 * store (docs/performance.md, "MCP: the audit's entities grouped, session 26").
 */
final class EntityGroups {

    private EntityGroups() {
    }

    /**
     * The refs as groups, appended as text: ids need no escaping, and a type or action is escaped once per group
     * (a generator over a writer checked every character of every id; docs/performance.md, "MCP: the call's own
     * work, session 27").
     */
    static String write(List<EntityRef> refs) {
        var text = new StringBuilder(16 + refs.size() * 40).append('[');
        EntityRef group = null;
        for (EntityRef ref : refs) {
            if (group == null || !Objects.equals(group.type(), ref.type())
                    || !Objects.equals(group.action(), ref.action())) {
                if (group != null) {
                    text.append("]},");
                }
                group = ref;
                text.append("{\"type\":");
                string(text, ref.type());
                text.append(",\"action\":");
                string(text, ref.action());
                text.append(",\"ids\":[");
            } else {
                text.append(',');
            }
            if (ref.id() == null) {
                text.append("null");
            } else {
                text.append('"').append(ref.id()).append('"');
            }
        }
        if (group != null) {
            text.append("]}");
        }
        return text.append(']').toString();
    }

    private static void string(StringBuilder text, String value) {
        if (value == null) {
            text.append("null");
        } else {
            text.append('"');
            JsonStringEncoder.getInstance().quoteAsString(value, text);
            text.append('"');
        }
    }

    /** The refs of groups {@link #write} wrote, one per id, in their order. */
    static List<EntityRef> read(String json) {
        JsonNode groups;
        try {
            groups = Json.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable entities in the tool-call audit", e);
        }
        List<EntityRef> refs = new ArrayList<>();
        for (JsonNode group : groups) {
            String type = group.path("type").textValue();
            String action = group.path("action").textValue();
            for (JsonNode id : group.path("ids")) {
                refs.add(new EntityRef(type, id.isNull() ? null : UUID.fromString(id.textValue()), action));
            }
        }
        return refs;
    }
}
