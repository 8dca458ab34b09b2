package com.example.notes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.Listing;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.sql.Column;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** All SQL of the plugin. Row-level security already limits rows to the workspace; the filter keeps plans tight. */
final class NotesRepository {

    private static final List<Column> COLUMNS = List.of(Column.uuid("id"), Column.text("text"),
            Column.timestamp("created_at"));

    Listing<ObjectNode> list(WorkspaceTx tx, PageRequest page) {
        var handle = tx.handle();
        long total = handle.createQuery("SELECT count(*) FROM notes.items WHERE workspace_id = :workspace_id")
                .bind("workspace_id", tx.workspaceId()).mapTo(Long.class).one();
        List<ObjectNode> items = handle.createQuery("""
                        SELECT id, text, created_at FROM notes.items WHERE workspace_id = :workspace_id
                         ORDER BY created_at, id %s
                        """.formatted(page.limitClause()))
                .bind("workspace_id", tx.workspaceId())
                .map((rs, ctx) -> item(rs))
                .list();
        return Listing.of(items, page, total);
    }

    /**
     * At most {@code limit} items whose text contains {@code words} (any case; LIKE's wildcards taken as text), newest
     * first. A plugin with many rows per workspace serves this from an index (a trigram index and a candidates function:
     * the CRM's contacts show how); a small table is read through its workspace.
     */
    List<ObjectNode> search(WorkspaceTx tx, String words, int limit) {
        String pattern = "%" + words.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
        return tx.handle().createQuery("""
                        SELECT id, text, created_at FROM notes.items
                         WHERE workspace_id = :workspace_id AND text ILIKE :pattern
                         ORDER BY created_at DESC, id DESC LIMIT %d
                        """.formatted(limit))
                .bind("workspace_id", tx.workspaceId())
                .bind("pattern", pattern)
                .map((rs, ctx) -> item(rs))
                .list();
    }

    ObjectNode create(WorkspaceTx tx, String text) {
        return tx.handle().createQuery("""
                        INSERT INTO notes.items (workspace_id, text) VALUES (:workspace_id, :text)
                        RETURNING id, text, created_at
                        """)
                .bind("workspace_id", tx.workspaceId())
                .bind("text", text)
                .map((rs, ctx) -> item(rs))
                .one();
    }

    Optional<ObjectNode> find(WorkspaceTx tx, UUID id) {
        return tx.handle().createQuery("""
                        SELECT id, text, created_at FROM notes.items WHERE workspace_id = :workspace_id AND id = :id
                        """)
                .bind("workspace_id", tx.workspaceId())
                .bind("id", id)
                .map((rs, ctx) -> item(rs))
                .findOne();
    }

    Optional<ObjectNode> update(WorkspaceTx tx, UUID id, String text) {
        return tx.handle().createQuery("""
                        UPDATE notes.items SET text = :text WHERE workspace_id = :workspace_id AND id = :id
                        RETURNING id, text, created_at
                        """)
                .bind("workspace_id", tx.workspaceId())
                .bind("id", id)
                .bind("text", text)
                .map((rs, ctx) -> item(rs))
                .findOne();
    }

    /** A row as the API answers it: the same JSON object for the route and the tool. */
    private static ObjectNode item(ResultSet rs) throws SQLException {
        ObjectNode item = Json.object();
        for (Column column : COLUMNS) {
            item.set(column.name(), column.readJson(rs));
        }
        return item;
    }
}
