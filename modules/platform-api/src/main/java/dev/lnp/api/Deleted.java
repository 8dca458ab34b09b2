package dev.lnp.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.UUID;

/**
 * The one shape of a deletion's answer (REST body, tool result and, for soft deletes, the event payload):
 * {@code {"id", "kind"?, "deleted": true, "deleted_at"?}}, in that order. {@code kind} is given where one route
 * deletes rows of several kinds (issues: tasks and tickets); {@code deleted_at} is given for a soft delete
 * ({@link dev.lnp.api.sql.SoftDelete}) and left out when the row is gone for good. Its schema is
 * {@link JsonSchemas#deleted()}.
 */
public record Deleted(UUID id, String kind, OffsetDateTime deletedAt) {

    /** A row deleted for good. */
    public static Deleted of(UUID id) {
        return new Deleted(id, null, null);
    }

    /** A row marked deleted at {@code deletedAt}. */
    public static Deleted soft(UUID id, OffsetDateTime deletedAt) {
        return new Deleted(id, null, deletedAt);
    }

    public Deleted withKind(String kind) {
        return new Deleted(id, kind, deletedAt);
    }

    /** The answer as JSON; {@code deleted_at} is written as Jackson writes an {@link OffsetDateTime}. */
    public ObjectNode toJson() {
        ObjectNode out = Json.object();
        out.put("id", id.toString());
        if (kind != null) {
            out.put("kind", kind);
        }
        out.put("deleted", true);
        if (deletedAt != null) {
            out.put("deleted_at", DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(deletedAt));
        }
        return out;
    }

    /** The schema of every deletion answer (see {@link JsonSchemas#deleted()}). */
    public static JsonNode schema() {
        return JsonSchemas.deleted();
    }
}
