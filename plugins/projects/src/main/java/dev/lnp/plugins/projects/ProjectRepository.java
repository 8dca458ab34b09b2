package dev.lnp.plugins.projects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.sql.Column;
import dev.lnp.api.sql.SoftDelete;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;

/** SQL of projects.projects. Every statement filters on the workspace; soft-deleted rows are never returned. */
final class ProjectRepository {

    /** Fields a client may set, in response order. */
    static final List<Column> FIELDS = List.of(
            Column.text("name"), Column.text("description"), Column.text("status"), Column.text("priority"),
            Column.number("progress"), Column.date("start_date"), Column.date("end_date"),
            Column.uuid("team_id"), Column.uuid("lead_user_id"), Column.uuid("template_id"),
            Column.uuid("deal_id"), Column.uuid("company_id"), Column.text("github_url"),
            Column.text("external_id"), Column.bool("hosted"));

    static final Column CREATED_AT = Column.timestamp("created_at");
    static final Column UPDATED_AT = Column.timestamp("updated_at");

    private static final String RETURNED = "id, " + FIELDS.stream().map(Column::name).collect(Collectors.joining(", "))
            + ", created_at, updated_at";

    ObjectNode insert(Handle handle, UUID workspaceId, Map<Column, Object> values) {
        String columns = values.keySet().stream().map(Column::name).collect(Collectors.joining(", "));
        String params = values.keySet().stream().map(c -> ":" + c.name()).collect(Collectors.joining(", "));
        var insert = handle.createQuery("INSERT INTO projects.projects (workspace_id" + (columns.isEmpty() ? "" : ", " + columns)
                + ") VALUES (:workspace_id" + (params.isEmpty() ? "" : ", " + params) + ") RETURNING " + RETURNED)
                .bind("workspace_id", workspaceId);
        values.forEach((column, value) -> column.bind(insert, value));
        return insert.map((rs, ctx) -> row(rs)).one();
    }

    Optional<ObjectNode> find(Handle handle, UUID workspaceId, UUID id) {
        return handle.createQuery("SELECT " + RETURNED + " FROM projects.projects"
                        + " WHERE workspace_id = :workspace_id AND id = :id AND deleted_at IS NULL")
                .bind("workspace_id", workspaceId)
                .bind("id", id)
                .map((rs, ctx) -> row(rs))
                .findOne();
    }

    /** Locks the row for the rest of the transaction, so date checks against stored values stay true. */
    Optional<ObjectNode> findForUpdate(Handle handle, UUID workspaceId, UUID id) {
        return handle.createQuery("SELECT " + RETURNED + " FROM projects.projects"
                        + " WHERE workspace_id = :workspace_id AND id = :id AND deleted_at IS NULL FOR UPDATE")
                .bind("workspace_id", workspaceId)
                .bind("id", id)
                .map((rs, ctx) -> row(rs))
                .findOne();
    }

    ObjectNode update(Handle handle, UUID workspaceId, UUID id, Map<Column, Object> values) {
        String sets = values.keySet().stream().map(c -> c.name() + " = :" + c.name()).collect(Collectors.joining(", "));
        var update = handle.createQuery("UPDATE projects.projects SET " + sets + ", updated_at = now()"
                        + " WHERE workspace_id = :workspace_id AND id = :id AND deleted_at IS NULL RETURNING " + RETURNED)
                .bind("workspace_id", workspaceId)
                .bind("id", id);
        values.forEach((column, value) -> column.bind(update, value));
        return update.map((rs, ctx) -> row(rs)).one();
    }

    Optional<OffsetDateTime> softDelete(Handle handle, UUID workspaceId, UUID id) {
        return SoftDelete.mark(handle, "projects.projects", workspaceId, id);
    }

    List<ObjectNode> list(Handle handle, UUID workspaceId, int limit, long offset) {
        return handle.createQuery("SELECT " + RETURNED + " FROM projects.projects"
                        + " WHERE workspace_id = :workspace_id AND deleted_at IS NULL ORDER BY created_at, id LIMIT :limit OFFSET :offset")
                .bind("workspace_id", workspaceId)
                .bind("limit", limit)
                .bind("offset", offset)
                .map((rs, ctx) -> row(rs))
                .list();
    }

    /**
     * Live projects whose name contains {@code text} (any case), by name. A workspace has projects by the
     * hundred, not the million: the scan stays within its live projects ({@code projects_workspace_live}).
     */
    List<ObjectNode> named(Handle handle, UUID workspaceId, String text, int limit) {
        String escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
        return handle.createQuery("SELECT " + RETURNED + " FROM projects.projects WHERE workspace_id = :workspace_id"
                        + " AND deleted_at IS NULL AND name ILIKE :pattern ORDER BY lower(name), id LIMIT " + limit)
                .bind("workspace_id", workspaceId)
                .bind("pattern", "%" + escaped + "%")
                .map((rs, ctx) -> row(rs))
                .list();
    }

    long count(Handle handle, UUID workspaceId) {
        return handle.createQuery("SELECT count(*) FROM projects.projects WHERE workspace_id = :workspace_id AND deleted_at IS NULL")
                .bind("workspace_id", workspaceId)
                .mapTo(Long.class)
                .one();
    }

    /** The live projects of the workspace by name, at most {@code limit}. */
    List<dev.lnp.plugins.projects.api.ProjectDirectory.ProjectName> names(Handle handle, UUID workspaceId, int limit) {
        return handle.createQuery("""
                        SELECT id, name FROM projects.projects
                         WHERE workspace_id = :workspace_id AND deleted_at IS NULL
                         ORDER BY lower(name), id
                         LIMIT :limit
                        """)
                .bind("workspace_id", workspaceId)
                .bind("limit", limit)
                .map((rs, ctx) -> new dev.lnp.plugins.projects.api.ProjectDirectory.ProjectName(
                        rs.getObject("id", UUID.class), rs.getString("name")))
                .list();
    }

    boolean exists(Handle handle, UUID workspaceId, UUID id) {
        return handle.createQuery("""
                        SELECT EXISTS (SELECT 1 FROM projects.projects
                                        WHERE workspace_id = :workspace_id AND id = :id AND deleted_at IS NULL)
                        """)
                .bind("workspace_id", workspaceId)
                .bind("id", id)
                .mapTo(Boolean.class)
                .one();
    }

    private static ObjectNode row(ResultSet rs) throws SQLException {
        ObjectNode project = Json.object();
        project.put("id", rs.getString("id"));
        for (Column column : FIELDS) {
            project.set(column.name(), column.readJson(rs));
        }
        project.set("created_at", CREATED_AT.readJson(rs));
        project.set("updated_at", UPDATED_AT.readJson(rs));
        return project;
    }
}
