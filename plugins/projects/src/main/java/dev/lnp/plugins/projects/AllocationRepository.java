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

/** SQL of projects.allocations. */
final class AllocationRepository {

    static final List<Column> FIELDS = List.of(
            Column.uuid("user_id"), Column.uuid("project_id"), Column.uuid("issue_id"), Column.date("start_date"),
            Column.date("end_date"), Column.number("hours_per_day"), Column.number("percentage"), Column.text("note"));

    private static final Column CREATED_BY = Column.uuid("created_by");

    private static final String RETURNED = "id, user_id, project_id, issue_id, start_date, end_date, hours_per_day,"
            + " percentage, note, created_by, created_at, updated_at";

    ObjectNode insert(Handle handle, UUID workspaceId, UUID createdBy, Map<Column, Object> values) {
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
    List<ObjectNode> list(Handle handle, UUID workspaceId, UUID userId, UUID projectId, int limit, long offset) {
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

    /** @param lock whether to lock the row for the rest of the transaction (a PATCH checks against it) */
    Optional<ObjectNode> find(Handle handle, UUID workspaceId, UUID id, boolean lock) {
        return handle.createQuery("SELECT " + RETURNED + " FROM projects.allocations WHERE workspace_id = :workspace_id"
                        + " AND id = :id" + (lock ? " FOR UPDATE" : ""))
                .bind("workspace_id", workspaceId)
                .bind("id", id)
                .map((rs, ctx) -> row(rs))
                .findOne();
    }

    ObjectNode update(Handle handle, UUID workspaceId, UUID id, Map<Column, Object> values) {
        String sets = values.keySet().stream().map(c -> c.name() + " = :" + c.name())
                .collect(java.util.stream.Collectors.joining(", "));
        var update = handle.createQuery("UPDATE projects.allocations SET " + sets + ", updated_at = now()"
                        + " WHERE workspace_id = :workspace_id AND id = :id RETURNING " + RETURNED)
                .bind("workspace_id", workspaceId)
                .bind("id", id);
        values.forEach((column, value) -> column.bind(update, value));
        return update.map((rs, ctx) -> row(rs)).one();
    }

    boolean delete(Handle handle, UUID workspaceId, UUID id) {
        return handle.createUpdate("DELETE FROM projects.allocations WHERE workspace_id = :workspace_id AND id = :id")
                .bind("workspace_id", workspaceId)
                .bind("id", id)
                .execute() == 1;
    }

    /** The allocations that share at least one day with from..to, of these people (all when empty). */
    List<ObjectNode> overlapping(Handle handle, UUID workspaceId, List<UUID> users, LocalDate from, LocalDate to) {
        var query = handle.createQuery("SELECT " + RETURNED + " FROM projects.allocations"
                        + " WHERE workspace_id = :workspace_id AND start_date <= :to AND end_date >= :from"
                        + (users.isEmpty() ? "" : " AND user_id = ANY(:users)") + " ORDER BY user_id, start_date, id")
                .bind("workspace_id", workspaceId)
                .bind("from", from)
                .bind("to", to);
        if (!users.isEmpty()) {
            query.bindArray("users", UUID.class, users);
        }
        return query.map((rs, ctx) -> row(rs)).list();
    }

    /** The people with an allocation on the project that shares a day with from..to. */
    List<UUID> peopleOn(Handle handle, UUID workspaceId, UUID projectId, LocalDate from, LocalDate to) {
        return handle.createQuery("SELECT DISTINCT user_id FROM projects.allocations WHERE workspace_id = :workspace_id"
                        + " AND project_id = :project AND start_date <= :to AND end_date >= :from")
                .bind("workspace_id", workspaceId)
                .bind("project", projectId)
                .bind("from", from)
                .bind("to", to)
                .mapTo(UUID.class)
                .list();
    }

    private static ObjectNode row(ResultSet rs) throws SQLException {
        ObjectNode allocation = Json.object();
        allocation.put("id", rs.getString("id"));
        for (Column column : FIELDS) {
            allocation.set(column.name(), column.readJson(rs));
        }
        allocation.set("created_by", CREATED_BY.readJson(rs));
        allocation.set("created_at", ProjectRepository.CREATED_AT.readJson(rs));
        allocation.set("updated_at", ProjectRepository.UPDATED_AT.readJson(rs));
        return allocation;
    }
}
