package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.sql.Column;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** SQL of issues.comments; a comment points at a task or a ticket through the kind's own column. */
final class CommentRepository {

    /** What a comment answers with after its id and issue, in response order. */
    private static final List<Column> COLUMNS = List.of(Column.text("body"), Column.bool("internal"), Column.uuid("author_id"),
            Column.text("author_type"), Column.timestamp("created_at"), Column.timestamp("updated_at"));

    private static final String RETURNED = "id, task_id, ticket_id, body, internal, author_id, author_type, created_at, updated_at";

    ObjectNode insert(Handle handle, UUID workspaceId, IssueKind kind, UUID issueId, String body, boolean internal,
            UUID authorId, String authorType) {
        return handle.createQuery("INSERT INTO issues.comments (workspace_id, " + kind.refColumn
                        + ", body, internal, author_id, author_type) VALUES (:workspace_id, :issue, :body, :internal, :author,"
                        + " :type) RETURNING " + RETURNED)
                .bind("workspace_id", workspaceId)
                .bind("issue", issueId)
                .bind("body", body)
                .bind("internal", internal)
                .bind("author", authorId)
                .bind("type", authorType)
                .map((rs, ctx) -> row(rs))
                .one();
    }

    List<ObjectNode> list(Handle handle, UUID workspaceId, IssueKind kind, UUID issueId, int limit,
            long offset) {
        return handle.createQuery("SELECT " + RETURNED + " FROM issues.comments WHERE workspace_id = :workspace_id AND "
                        + kind.refColumn + " = :issue ORDER BY created_at, id LIMIT :limit OFFSET :offset")
                .bind("workspace_id", workspaceId)
                .bind("issue", issueId)
                .bind("limit", limit)
                .bind("offset", offset)
                .map((rs, ctx) -> row(rs))
                .list();
    }

    long count(Handle handle, UUID workspaceId, IssueKind kind, UUID issueId) {
        return handle.createQuery("SELECT count(*) FROM issues.comments WHERE workspace_id = :workspace_id AND "
                        + kind.refColumn + " = :issue")
                .bind("workspace_id", workspaceId)
                .bind("issue", issueId)
                .mapTo(Long.class)
                .one();
    }

    private static ObjectNode row(ResultSet rs) throws SQLException {
        UUID task = rs.getObject("task_id", UUID.class);
        ObjectNode comment = Json.object();
        comment.put("id", rs.getString("id"));
        comment.put("issue_id", (task != null ? task : rs.getObject("ticket_id", UUID.class)).toString());
        comment.put("issue_kind", task != null ? "task" : "ticket");
        for (Column column : COLUMNS) {
            comment.set(column.name(), column.readJson(rs));
        }
        return comment;
    }
}
