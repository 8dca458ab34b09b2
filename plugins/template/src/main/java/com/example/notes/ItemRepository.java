package com.example.notes;

import dev.lnp.api.WorkspaceTx;
import dev.lnp.api.http.PageRequest;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** All SQL of the plugin. Row-level security already limits rows to the workspace; the filter keeps plans tight. */
final class ItemRepository {

    record ItemPage(List<Map<String, Object>> items, long total) {
    }

    ItemPage list(WorkspaceTx tx, PageRequest page) {
        var handle = tx.handle();
        long total = handle.createQuery("SELECT count(*) FROM notes.items WHERE workspace_id = :workspace_id")
                .bind("workspace_id", tx.workspaceId()).mapTo(Long.class).one();
        List<Map<String, Object>> items = handle.createQuery("""
                        SELECT id, text, created_at FROM notes.items WHERE workspace_id = :workspace_id
                         ORDER BY created_at, id LIMIT :limit OFFSET :offset
                        """)
                .bind("workspace_id", tx.workspaceId())
                .bind("limit", page.limit())
                .bind("offset", page.offset())
                .map((rs, ctx) -> item(rs.getObject("id", UUID.class), rs.getString("text"),
                        rs.getObject("created_at", OffsetDateTime.class)))
                .list();
        return new ItemPage(items, total);
    }

    Map<String, Object> create(WorkspaceTx tx, String text) {
        return tx.handle().createQuery("""
                        INSERT INTO notes.items (workspace_id, text) VALUES (:workspace_id, :text)
                        RETURNING id, text, created_at
                        """)
                .bind("workspace_id", tx.workspaceId())
                .bind("text", text)
                .map((rs, ctx) -> item(rs.getObject("id", UUID.class), rs.getString("text"),
                        rs.getObject("created_at", OffsetDateTime.class)))
                .one();
    }

    private static Map<String, Object> item(UUID id, String text, OffsetDateTime createdAt) {
        return Map.of("id", id, "text", text, "created_at", createdAt.toString());
    }
}
