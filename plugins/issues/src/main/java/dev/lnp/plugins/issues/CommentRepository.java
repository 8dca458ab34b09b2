package dev.lnp.plugins.issues;

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

    private static final String RETURNED = "id, task_id, ticket_id, body, author_id, author_type, created_at, updated_at";

    Map<String, Object> insert(Handle handle, UUID workspaceId, IssueKind kind, UUID issueId, String body,
            UUID authorId, String authorType) {
        return handle.createQuery("INSERT INTO issues.comments (workspace_id, " + kind.refColumn
                        + ", body, author_id, author_type) VALUES (:workspace_id, :issue, :body, :author, :type) RETURNING " + RETURNED)
                .bind("workspace_id", workspaceId)
                .bind("issue", issueId)
                .bind("body", body)
                .bind("author", authorId)
                .bind("type", authorType)
                .map((rs, ctx) -> row(rs))
                .one();
    }

    List<Map<String, Object>> list(Handle handle, UUID workspaceId, IssueKind kind, UUID issueId, int limit,
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

    private static Map<String, Object> row(ResultSet rs) throws SQLException {
        UUID task = rs.getObject("task_id", UUID.class);
        Map<String, Object> comment = new LinkedHashMap<>();
        comment.put("id", rs.getObject("id", UUID.class));
        comment.put("issue_id", task != null ? task : rs.getObject("ticket_id", UUID.class));
        comment.put("issue_kind", task != null ? "task" : "ticket");
        comment.put("body", rs.getString("body"));
        comment.put("author_id", rs.getObject("author_id", UUID.class));
        comment.put("author_type", rs.getString("author_type"));
        comment.put("created_at", rs.getObject("created_at", OffsetDateTime.class));
        comment.put("updated_at", rs.getObject("updated_at", OffsetDateTime.class));
        return comment;
    }
}
