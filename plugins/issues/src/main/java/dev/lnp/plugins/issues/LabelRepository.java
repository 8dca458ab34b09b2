package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.sql.Column;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** SQL of issues.labels. */
final class LabelRepository {

    private static final Column NAME = Column.text("name");
    private static final Column COLOR = Column.text("color");
    private static final Column CREATED_AT = Column.timestamp("created_at");

    /** Empty when the workspace already has a label of that name (in any letter case). */
    Optional<ObjectNode> insert(Handle handle, UUID workspaceId, String name, String color) {
        return handle.createQuery("""
                        INSERT INTO issues.labels (workspace_id, name, color) VALUES (:workspace_id, :name, :color)
                        ON CONFLICT (workspace_id, lower(name)) DO NOTHING
                        RETURNING id, name, color, created_at
                        """)
                .bind("workspace_id", workspaceId)
                .bind("name", name)
                .bind("color", color)
                .map((rs, ctx) -> withCreatedAt(rs))
                .findOne();
    }

    List<ObjectNode> list(Handle handle, UUID workspaceId, int limit, long offset) {
        return handle.createQuery("""
                        SELECT id, name, color, created_at FROM issues.labels WHERE workspace_id = :workspace_id
                         ORDER BY lower(name), id LIMIT :limit OFFSET :offset
                        """)
                .bind("workspace_id", workspaceId)
                .bind("limit", limit)
                .bind("offset", offset)
                .map((rs, ctx) -> withCreatedAt(rs))
                .list();
    }

    long count(Handle handle, UUID workspaceId) {
        return handle.createQuery("SELECT count(*) FROM issues.labels WHERE workspace_id = :workspace_id")
                .bind("workspace_id", workspaceId)
                .mapTo(Long.class)
                .one();
    }

    Set<UUID> existing(Handle handle, UUID workspaceId, Collection<UUID> ids) {
        return new HashSet<>(handle.createQuery("SELECT id FROM issues.labels WHERE workspace_id = :workspace_id AND id = ANY(:ids)")
                .bind("workspace_id", workspaceId)
                .bindArray("ids", UUID.class, ids)
                .mapTo(UUID.class)
                .list());
    }

    /** A label as issues show it. */
    static ObjectNode row(ResultSet rs) throws SQLException {
        ObjectNode label = Json.object();
        label.put("id", rs.getString("id"));
        label.set("name", NAME.readJson(rs));
        label.set("color", COLOR.readJson(rs));
        return label;
    }

    private static ObjectNode withCreatedAt(ResultSet rs) throws SQLException {
        ObjectNode label = row(rs);
        label.set("created_at", CREATED_AT.readJson(rs));
        return label;
    }
}
