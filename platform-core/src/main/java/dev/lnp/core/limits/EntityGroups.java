package dev.lnp.core.limits;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.mcp.EntityRef;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A tool call's entities as the audit stores them ({@code lnp_core.tool_calls}): consecutive refs of one type and
 * action form a group. Each group's type, action and size go to {@code entity_kinds}
 * ({@code [{"type": "contact", "action": "read", "count": 50}]}), every ref's id, in the call's order, to
 * {@code entity_ids} as its 16 bytes. A list call names every row it read, fifty refs of one type and action:
 * as JSON text the ids were 2 KB a row for the node to build and send and PostgreSQL to parse, the largest part
 * of what a list call cost beyond the same REST page.
 */
final class EntityGroups {

    /** How a ref without an id is stored: no entity has the nil UUID, since every id is a random (version 4) one. */
    private static final UUID NO_ID = new UUID(0, 0);

    private EntityGroups() {
    }

    /**
     * The groups' types, actions and sizes, as text: a type or action is escaped once per group (a generator over
     * a writer checked every character).
     */
    static String kinds(List<EntityRef> refs) {
        var text = new StringBuilder(64).append('[');
        EntityRef group = null;
        int count = 0;
        for (EntityRef ref : refs) {
            if (group != null && Objects.equals(group.type(), ref.type())
                    && Objects.equals(group.action(), ref.action())) {
                count++;
                continue;
            }
            if (group != null) {
                text.append(count).append("},");
            }
            group = ref;
            count = 1;
            text.append("{\"type\":");
            string(text, ref.type());
            text.append(",\"action\":");
            string(text, ref.action());
            text.append(",\"count\":");
        }
        if (group != null) {
            text.append(count).append('}');
        }
        return text.append(']').toString();
    }

    /** Every ref's id as its 16 bytes (most significant first, as PostgreSQL's uuid), in the refs' order. */
    static byte[] ids(List<EntityRef> refs) {
        ByteBuffer bytes = ByteBuffer.allocate(refs.size() * 16);
        for (EntityRef ref : refs) {
            UUID id = ref.id() == null ? NO_ID : ref.id();
            bytes.putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
        }
        return bytes.array();
    }

    /** The refs {@link #kinds} and {@link #ids} stored, one per id, in their order. */
    static List<EntityRef> read(String kinds, byte[] ids) {
        ByteBuffer bytes = ByteBuffer.wrap(ids);
        List<EntityRef> refs = new ArrayList<>(ids.length / 16);
        for (JsonNode group : tree(kinds)) {
            String type = group.path("type").textValue();
            String action = group.path("action").textValue();
            for (int i = group.path("count").intValue(); i > 0; i--) {
                if (bytes.remaining() < 16) {
                    throw new IllegalStateException("the tool-call audit's ids are fewer than its kinds count");
                }
                UUID id = new UUID(bytes.getLong(), bytes.getLong());
                refs.add(new EntityRef(type, NO_ID.equals(id) ? null : id, action));
            }
        }
        return refs;
    }

    /**
     * The refs of a row that the versions from migration V13_35 to this one recorded:
     * {@code [{"type": …, "action": …, "ids": ["…", …]}]} in {@code entity_groups}.
     */
    static List<EntityRef> readGrouped(String json) {
        List<EntityRef> refs = new ArrayList<>();
        for (JsonNode group : tree(json)) {
            String type = group.path("type").textValue();
            String action = group.path("action").textValue();
            for (JsonNode id : group.path("ids")) {
                refs.add(new EntityRef(type, id.isNull() ? null : UUID.fromString(id.textValue()), action));
            }
        }
        return refs;
    }

    private static JsonNode tree(String json) {
        try {
            return Json.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable entities in the tool-call audit", e);
        }
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
}
