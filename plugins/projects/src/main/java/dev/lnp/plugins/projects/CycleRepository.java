package dev.lnp.plugins.projects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.sql.Column;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** SQL of projects.cycles. A cycle of a soft-deleted project is treated as gone. */
final class CycleRepository {

    /** The columns a cycle answers with after its id, in response order. */
    private static final List<Column> COLUMNS = List.of(Column.uuid("project_id"), Column.text("name"),
            Column.date("start_date"), Column.date("end_date"), Column.text("status"), ProjectRepository.CREATED_AT,
            ProjectRepository.UPDATED_AT);

    private static final String RETURNED = "id, project_id, name, start_date, end_date, status, created_at, updated_at";

    ObjectNode insert(Handle handle, UUID workspaceId, UUID projectId, String name, LocalDate start,
            LocalDate end, String status) {
        return handle.createQuery("""
                        INSERT INTO projects.cycles (workspace_id, project_id, name, start_date, end_date, status)
                        VALUES (:workspace_id, :project, :name, :start, :end, :status)
                        RETURNING\s""" + RETURNED)
                .bind("workspace_id", workspaceId)
                .bind("project", projectId)
                .bind("name", name)
                .bind("start", start)
                .bind("end", end)
                .bind("status", status)
                .map((rs, ctx) -> row(rs))
                .one();
    }

    /**
     * The project's first cycle (by start) sharing at least one day with start..end, both days included.
     *
     * @param except a cycle left out (the one being changed), or null
     */
    Optional<ObjectNode> firstOverlapping(Handle handle, UUID workspaceId, UUID projectId, LocalDate start,
            LocalDate end, UUID except) {
        return handle.createQuery("SELECT " + RETURNED + " FROM projects.cycles WHERE workspace_id = :workspace_id"
                        + " AND project_id = :project AND start_date <= :end AND end_date >= :start"
                        + " AND id IS DISTINCT FROM CAST(:except AS uuid)"
                        + " ORDER BY start_date, created_at, id LIMIT 1")
                .bind("workspace_id", workspaceId)
                .bind("project", projectId)
                .bind("start", start)
                .bind("end", end)
                .bindByType("except", except, UUID.class)
                .map((rs, ctx) -> row(rs))
                .findOne();
    }

    /** A cycle of a live project of the workspace. */
    Optional<ObjectNode> find(Handle handle, UUID workspaceId, UUID id) {
        return handle.createQuery("SELECT " + qualified("c") + " FROM projects.cycles c"
                        + " JOIN projects.projects p ON p.id = c.project_id AND p.workspace_id = c.workspace_id"
                        + " WHERE c.workspace_id = :workspace_id AND c.id = :id AND p.deleted_at IS NULL")
                .bind("workspace_id", workspaceId)
                .bind("id", id)
                .map((rs, ctx) -> row(rs))
                .findOne();
    }

    /** The project's first cycle that starts after {@code after} and is not completed: where open work goes next. */
    Optional<ObjectNode> next(Handle handle, UUID workspaceId, UUID projectId, LocalDate after) {
        return handle.createQuery("SELECT " + RETURNED + " FROM projects.cycles WHERE workspace_id = :workspace_id"
                        + " AND project_id = :project AND start_date > :after AND status <> 'completed'"
                        + " ORDER BY start_date, created_at, id LIMIT 1")
                .bind("workspace_id", workspaceId)
                .bind("project", projectId)
                .bind("after", after)
                .map((rs, ctx) -> row(rs))
                .findOne();
    }

    /** @param values name, start_date, end_date or status, as schema-checked */
    ObjectNode update(Handle handle, UUID workspaceId, UUID id, Map<String, Object> values) {
        String sets = values.keySet().stream().map(name -> name + " = :" + name)
                .collect(java.util.stream.Collectors.joining(", "));
        var update = handle.createQuery("UPDATE projects.cycles SET " + sets + ", updated_at = now()"
                        + " WHERE workspace_id = :workspace_id AND id = :id RETURNING " + RETURNED)
                .bind("workspace_id", workspaceId)
                .bind("id", id);
        values.forEach(update::bind);
        return update.map((rs, ctx) -> row(rs)).one();
    }

    private static String qualified(String alias) {
        return java.util.Arrays.stream(RETURNED.split(", ")).map(c -> alias + "." + c)
                .collect(java.util.stream.Collectors.joining(", "));
    }

    List<ObjectNode> list(Handle handle, UUID workspaceId, UUID projectId, int limit, long offset) {
        return handle.createQuery("SELECT " + RETURNED + " FROM projects.cycles WHERE workspace_id = :workspace_id"
                        + " AND project_id = :project ORDER BY start_date, created_at, id LIMIT :limit OFFSET :offset")
                .bind("workspace_id", workspaceId)
                .bind("project", projectId)
                .bind("limit", limit)
                .bind("offset", offset)
                .map((rs, ctx) -> row(rs))
                .list();
    }

    long count(Handle handle, UUID workspaceId, UUID projectId) {
        return handle.createQuery("SELECT count(*) FROM projects.cycles WHERE workspace_id = :workspace_id AND project_id = :project")
                .bind("workspace_id", workspaceId)
                .bind("project", projectId)
                .mapTo(Long.class)
                .one();
    }

    Optional<UUID> projectOf(Handle handle, UUID workspaceId, UUID cycleId) {
        return handle.createQuery("""
                        SELECT c.project_id FROM projects.cycles c
                          JOIN projects.projects p ON p.id = c.project_id AND p.workspace_id = c.workspace_id
                         WHERE c.workspace_id = :workspace_id AND c.id = :id AND p.deleted_at IS NULL
                        """)
                .bind("workspace_id", workspaceId)
                .bind("id", cycleId)
                .mapTo(UUID.class)
                .findOne();
    }

    /** The cycles still open (not completed) of the workspace's live projects, by project name and start. */
    List<dev.lnp.plugins.projects.api.ProjectDirectory.OpenCycle> open(Handle handle, UUID workspaceId, int limit) {
        return handle.createQuery("""
                        SELECT c.id, c.project_id, c.name, p.name AS project_name FROM projects.cycles c
                          JOIN projects.projects p ON p.id = c.project_id AND p.workspace_id = c.workspace_id
                         WHERE c.workspace_id = :workspace_id AND c.status <> 'completed' AND p.deleted_at IS NULL
                         ORDER BY p.name, c.start_date, c.id
                         LIMIT :limit
                        """)
                .bind("workspace_id", workspaceId)
                .bind("limit", limit)
                .map((rs, ctx) -> new dev.lnp.plugins.projects.api.ProjectDirectory.OpenCycle(
                        rs.getObject("id", UUID.class), rs.getObject("project_id", UUID.class), rs.getString("name"),
                        rs.getString("project_name")))
                .list();
    }

    /** One cycle of a live project, completed or not, with its project's name; empty for an unknown one. */
    Optional<dev.lnp.plugins.projects.api.ProjectDirectory.OpenCycle> named(Handle handle, UUID workspaceId,
            UUID cycleId) {
        return handle.createQuery("""
                        SELECT c.id, c.project_id, c.name, p.name AS project_name FROM projects.cycles c
                          JOIN projects.projects p ON p.id = c.project_id AND p.workspace_id = c.workspace_id
                         WHERE c.workspace_id = :workspace_id AND c.id = :id AND p.deleted_at IS NULL
                        """)
                .bind("workspace_id", workspaceId)
                .bind("id", cycleId)
                .map((rs, ctx) -> new dev.lnp.plugins.projects.api.ProjectDirectory.OpenCycle(
                        rs.getObject("id", UUID.class), rs.getObject("project_id", UUID.class), rs.getString("name"),
                        rs.getString("project_name")))
                .findOne();
    }

    private static ObjectNode row(ResultSet rs) throws SQLException {
        ObjectNode cycle = Json.object();
        cycle.put("id", rs.getString("id"));
        for (Column column : COLUMNS) {
            cycle.set(column.name(), column.readJson(rs));
        }
        return cycle;
    }
}
