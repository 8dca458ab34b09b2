package dev.lnp.plugins.projects;

import dev.lnp.api.sql.Column;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** SQL of projects.allocations. */
final class AllocationRepository {

    static final List<Column> FIELDS = List.of(
            Column.uuid("user_id"), Column.uuid("project_id"), Column.uuid("issue_id"), Column.date("start_date"),
            Column.date("end_date"), Column.number("hours_per_day"), Column.number("percentage"), Column.text("note"));

    private static final String RETURNED = "id, user_id, project_id, issue_id, start_date, end_date, hours_per_day,"
            + " percentage, note, created_by, created_at";

    Map<String, Object> insert(Handle handle, UUID workspaceId, UUID createdBy, Map<Column, Object> values) {
        var insert = handle.createQuery("""
                        INSERT INTO projects.allocations (workspace_id, created_by, user_id, project_id, issue_id,
                                                          start_date, end_date, hours_per_day, percentage, note)
                        VALUES (:workspace_id, :created_by, :user_id, :project_id, :issue_id, :start_date, :end_date,
                                :hours_per_day, :percentage, :note)
                        RETURNING\s""" + RETURNED)
                .bind("workspace_id", workspaceId)
                .bind("created_by", createdBy);
        for (Column column : FIELDS) {
            column.bind(insert, values.get(column));
        }
        return insert.map((rs, ctx) -> row(rs)).one();
    }

    /** @param userId, projectId optional filters (null: any) */
    List<Map<String, Object>> list(Handle handle, UUID workspaceId, UUID userId, UUID projectId, int limit, long offset) {
        return handle.createQuery("SELECT " + RETURNED + " FROM projects.allocations WHERE workspace_id = :workspace_id"
                        + " AND (CAST(:user AS uuid) IS NULL OR user_id = CAST(:user AS uuid))"
                        + " AND (CAST(:project AS uuid) IS NULL OR project_id = CAST(:project AS uuid))"
                        + " ORDER BY start_date, created_at, id LIMIT :limit OFFSET :offset")
                .bind("workspace_id", workspaceId)
                .bindByType("user", userId, UUID.class)
                .bindByType("project", projectId, UUID.class)
                .bind("limit", limit)
                .bind("offset", offset)
                .map((rs, ctx) -> row(rs))
                .list();
    }

    long count(Handle handle, UUID workspaceId, UUID userId, UUID projectId) {
        return handle.createQuery("SELECT count(*) FROM projects.allocations WHERE workspace_id = :workspace_id"
                        + " AND (CAST(:user AS uuid) IS NULL OR user_id = CAST(:user AS uuid))"
                        + " AND (CAST(:project AS uuid) IS NULL OR project_id = CAST(:project AS uuid))")
                .bind("workspace_id", workspaceId)
                .bindByType("user", userId, UUID.class)
                .bindByType("project", projectId, UUID.class)
                .mapTo(Long.class)
                .one();
    }

    private static Map<String, Object> row(ResultSet rs) throws SQLException {
        Map<String, Object> allocation = new LinkedHashMap<>();
        allocation.put("id", rs.getObject("id", UUID.class));
        for (Column column : FIELDS) {
            allocation.put(column.name(), column.read(rs));
        }
        allocation.put("created_by", rs.getObject("created_by", UUID.class));
        allocation.put("created_at", rs.getObject("created_at", OffsetDateTime.class));
        return allocation;
    }
}
