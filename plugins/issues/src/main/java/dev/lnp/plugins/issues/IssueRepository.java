package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.SerializedString;
import dev.lnp.api.Json;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.sql.JsonRows;
import dev.lnp.api.sql.Column;
import dev.lnp.api.sql.SoftDelete;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;

/**
 * SQL of issues.tasks and issues.tickets (and their label links). The table comes from {@link IssueKind},
 * column names from {@link #FIELDS}; request values are always bound, never spliced in.
 */
final class IssueRepository {

    /** Columns a client may set on create or update (start_date and epic_id only through bulk update). */
    static final List<Column> FIELDS = List.of(
            Column.text("title"), Column.text("description"), Column.text("status"), Column.text("priority"),
            Column.uuid("project_id"), Column.uuid("assignee_id"), Column.timestamp("due_at"),
            Column.date("start_date"), Column.uuid("parent_id"), Column.uuid("cycle_id"), Column.uuid("epic_id"),
            Column.number("estimate_hours"));

    /** Who created the item and when it was created and changed, after the fields. */
    static final List<Column> AUDIT = List.of(Column.uuid("created_by"), Column.timestamp("created_at"),
            Column.timestamp("updated_at"));

    /** The list rows' fixed fields: the key (never null) and the field names written beside the columns. */
    private static final Column ID = Column.uuid("id");
    private static final SerializedString KIND = new SerializedString("kind");
    private static final SerializedString LABELS = new SerializedString("labels");

    private static final String RETURNED = "id, " + FIELDS.stream().map(Column::name).collect(Collectors.joining(", "))
            + ", created_by, created_at, updated_at";

    /** Just enough of an item to route and check a request. */
    record Ref(UUID id, IssueKind kind, UUID projectId) {
    }

    static Column field(String name) {
        return FIELDS.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    ObjectNode insert(Handle handle, UUID workspaceId, IssueKind kind, UUID createdBy,
            Map<Column, Object> values) {
        String columns = values.keySet().stream().map(Column::name).collect(Collectors.joining(", "));
        String params = values.keySet().stream().map(c -> ":" + c.name()).collect(Collectors.joining(", "));
        var insert = handle.createQuery("INSERT INTO " + kind.table + " (workspace_id, created_by, " + columns
                        + ") VALUES (:workspace_id, :created_by, " + params + ") RETURNING " + RETURNED)
                .bind("workspace_id", workspaceId)
                .bind("created_by", createdBy);
        values.forEach((column, value) -> column.bind(insert, value));
        ObjectNode issue = insert.map((rs, ctx) -> row(rs, kind)).one();
        issue.putArray("labels");
        return issue;
    }

    /** Which collection holds a live item with this id, if any. */
    Optional<Ref> ref(Handle handle, UUID workspaceId, UUID id) {
        return handle.createQuery("""
                        SELECT id, 'task' AS kind, project_id FROM issues.tasks
                         WHERE workspace_id = :workspace_id AND id = :id AND deleted_at IS NULL
                        UNION ALL
                        SELECT id, 'ticket', project_id FROM issues.tickets WHERE workspace_id = :workspace_id AND id = :id
                        """)
                .bind("workspace_id", workspaceId)
                .bind("id", id)
                .map((rs, ctx) -> ref(rs))
                .findFirst();
    }

    /** Every live item among the ids, of either kind, in one round trip. */
    Map<UUID, Ref> refs(Handle handle, UUID workspaceId, Collection<UUID> ids) {
        Map<UUID, Ref> found = new HashMap<>();
        handle.createQuery("""
                        SELECT id, 'task' AS kind, project_id FROM issues.tasks
                         WHERE workspace_id = :workspace_id AND id = ANY(:ids) AND deleted_at IS NULL
                        UNION ALL
                        SELECT id, 'ticket', project_id FROM issues.tickets WHERE workspace_id = :workspace_id AND id = ANY(:ids)
                        """)
                .bind("workspace_id", workspaceId)
                .bindArray("ids", UUID.class, ids)
                .map((rs, ctx) -> ref(rs))
                .forEach(r -> found.put(r.id(), r));
        return found;
    }

    Optional<ObjectNode> find(Handle handle, UUID workspaceId, IssueKind kind, UUID id, boolean lock) {
        return handle.createQuery("SELECT " + RETURNED + " FROM " + kind.table + " i WHERE workspace_id = :workspace_id"
                        + " AND id = :id AND " + kind.live("i") + (lock ? " FOR UPDATE" : ""))
                .bind("workspace_id", workspaceId)
                .bind("id", id)
                .map((rs, ctx) -> row(rs, kind))
                .findOne()
                .map(issue -> withLabels(handle, workspaceId, kind, List.of(issue)).get(0));
    }

    List<ObjectNode> findAll(Handle handle, UUID workspaceId, IssueKind kind, Collection<UUID> ids) {
        List<ObjectNode> issues = handle.createQuery("SELECT " + RETURNED + " FROM " + kind.table
                        + " WHERE workspace_id = :workspace_id AND id = ANY(:ids) ORDER BY created_at, id")
                .bind("workspace_id", workspaceId)
                .bindArray("ids", UUID.class, ids)
                .map((rs, ctx) -> row(rs, kind))
                .list();
        return withLabels(handle, workspaceId, kind, issues);
    }

    boolean exists(Handle handle, UUID workspaceId, IssueKind kind, UUID id) {
        return handle.createQuery("SELECT EXISTS (SELECT 1 FROM " + kind.table + " i WHERE workspace_id = :workspace_id"
                        + " AND id = :id AND " + kind.live("i") + ")")
                .bind("workspace_id", workspaceId)
                .bind("id", id)
                .mapTo(Boolean.class)
                .one();
    }

    /** Whether {@code id} is {@code start} or one of its ancestors: making start its parent would close a loop. */
    boolean isAncestorOrSelf(Handle handle, UUID workspaceId, IssueKind kind, UUID start, UUID id) {
        return handle.createQuery("WITH RECURSIVE chain(id, parent_id) AS ("
                        + " SELECT id, parent_id FROM " + kind.table + " WHERE workspace_id = :workspace_id AND id = :start"
                        + " UNION SELECT t.id, t.parent_id FROM " + kind.table + " t JOIN chain c ON t.id = c.parent_id"
                        + " WHERE t.workspace_id = :workspace_id)"
                        + " SELECT EXISTS (SELECT 1 FROM chain WHERE id = :id)")
                .bind("workspace_id", workspaceId)
                .bind("start", start)
                .bind("id", id)
                .mapTo(Boolean.class)
                .one();
    }

    ObjectNode update(Handle handle, UUID workspaceId, IssueKind kind, UUID id, Map<Column, Object> values) {
        String sets = values.keySet().stream().map(c -> c.name() + " = :" + c.name()).collect(Collectors.joining(", "));
        var update = handle.createQuery("UPDATE " + kind.table + " i SET " + sets + ", updated_at = now()"
                        + " WHERE workspace_id = :workspace_id AND id = :id AND " + kind.live("i")
                        + " RETURNING " + RETURNED)
                .bind("workspace_id", workspaceId)
                .bind("id", id);
        values.forEach((column, value) -> column.bind(update, value));
        ObjectNode issue = update.map((rs, ctx) -> row(rs, kind)).one();
        return withLabels(handle, workspaceId, kind, List.of(issue)).get(0);
    }

    /** One statement for every listed item of a kind, however many there are. */
    int updateAll(Handle handle, UUID workspaceId, IssueKind kind, Collection<UUID> ids, Map<Column, Object> values) {
        String sets = values.keySet().stream().map(c -> c.name() + " = :" + c.name()).collect(Collectors.joining(", "));
        var update = handle.createUpdate("UPDATE " + kind.table + " i SET " + sets + (sets.isEmpty() ? "" : ", ")
                        + "updated_at = now() WHERE workspace_id = :workspace_id AND id = ANY(:ids) AND " + kind.live("i"))
                .bind("workspace_id", workspaceId)
                .bindArray("ids", UUID.class, ids);
        values.forEach((column, value) -> column.bind(update, value));
        return update.execute();
    }

    void addLabels(Handle handle, UUID workspaceId, IssueKind kind, Collection<UUID> ids, Collection<UUID> labels) {
        handle.createUpdate("INSERT INTO " + kind.labelTable + " (workspace_id, " + kind.refColumn + ", label_id)"
                        + " SELECT :workspace_id, i, l FROM unnest(:ids) AS i CROSS JOIN unnest(:labels) AS l"
                        + " ON CONFLICT DO NOTHING")
                .bind("workspace_id", workspaceId)
                .bindArray("ids", UUID.class, ids)
                .bindArray("labels", UUID.class, labels)
                .execute();
    }

    void removeLabels(Handle handle, UUID workspaceId, IssueKind kind, Collection<UUID> ids, Collection<UUID> labels) {
        handle.createUpdate("DELETE FROM " + kind.labelTable + " WHERE workspace_id = :workspace_id AND " + kind.refColumn
                        + " = ANY(:ids) AND label_id = ANY(:labels)")
                .bind("workspace_id", workspaceId)
                .bindArray("ids", UUID.class, ids)
                .bindArray("labels", UUID.class, labels)
                .execute();
    }

    /** The cycle's live items of this kind whose status is not a closed one. */
    int countOpen(Handle handle, UUID workspaceId, IssueKind kind, UUID cycleId) {
        return handle.createQuery("SELECT count(*) FROM " + kind.table + " i WHERE workspace_id = :workspace_id"
                        + " AND cycle_id = :cycle AND " + kind.live("i") + " AND status <> ALL(:closed)")
                .bind("workspace_id", workspaceId)
                .bind("cycle", cycleId)
                .bindArray("closed", String.class, kind.closedStatuses)
                .mapTo(Integer.class)
                .one();
    }

    /** Moves the cycle's open items of this kind to {@code to} (null: no cycle); the ids moved. */
    List<UUID> moveOpen(Handle handle, UUID workspaceId, IssueKind kind, UUID from, UUID to) {
        return handle.createQuery("UPDATE " + kind.table + " i SET cycle_id = CAST(:to AS uuid), updated_at = now()"
                        + " WHERE workspace_id = :workspace_id AND cycle_id = :from AND " + kind.live("i")
                        + " AND status <> ALL(:closed) RETURNING id")
                .bind("workspace_id", workspaceId)
                .bind("from", from)
                .bindByType("to", to, UUID.class)
                .bindArray("closed", String.class, kind.closedStatuses)
                .mapTo(UUID.class)
                .list();
    }

    Optional<OffsetDateTime> softDeleteTask(Handle handle, UUID workspaceId, UUID id) {
        return SoftDelete.mark(handle, IssueKind.TASK.table, workspaceId, id);
    }

    /**
     * One page written from the result set straight into the response (see {@link JsonRows}): each item's labels
     * come with its row, aggregated by the page query, so there is no second query, no node and no list per row.
     */
    JsonRows page(Handle handle, UUID workspaceId, IssueFilter filter, PageRequest page) {
        IssueKind kind = filter.kind();
        return JsonRows.withTotal(IssueListSql.page(handle, workspaceId, filter, page, RETURNED, true), rs -> writer(rs, kind), page,
                () -> count(handle, workspaceId, filter));
    }

    /** The same page as nodes, for the list tool (its result outlives the transaction and names no entity). */
    List<ObjectNode> list(Handle handle, UUID workspaceId, IssueFilter filter, PageRequest page) {
        return list(IssueListSql.page(handle, workspaceId, filter, page, RETURNED, false), filter.kind());
    }

    /** The page and, when there is one, the first item of the next: the application's lists never count. */
    List<ObjectNode> listAndOneMore(Handle handle, UUID workspaceId, IssueFilter filter, PageRequest page) {
        return list(IssueListSql.pageAndOneMore(handle, workspaceId, filter, page, RETURNED), filter.kind());
    }

    private static List<ObjectNode> list(org.jdbi.v3.core.statement.Query query, IssueKind kind) {
        return query.map((rs, ctx) -> {
            ObjectNode issue = row(rs, kind);
            String labels = rs.getString("labels");
            issue.set("labels", labels == null ? Json.mapper().createArrayNode() : Json.parse(labels));
            return issue;
        }).list();
    }

    /** Writes a page row as {@link #row} and {@link #withLabels} build it, field for field. */
    private static JsonRows.RowWriter writer(ResultSet rs, IssueKind kind) throws SQLException {
        JsonRows.FieldWriter id = JsonRows.field(ID, rs);
        JsonRows.FieldWriter[] fields = fields(rs, FIELDS);
        JsonRows.FieldWriter[] audit = fields(rs, AUDIT);
        int labels = rs.findColumn("labels");
        return (row, json) -> {
            json.writeStartObject();
            id.write(row, json);
            json.writeFieldName(KIND);
            json.writeString(kind.key);
            for (JsonRows.FieldWriter field : fields) {
                field.write(row, json);
            }
            for (JsonRows.FieldWriter field : audit) {
                field.write(row, json);
            }
            json.writeFieldName(LABELS);
            String text = row.getString(labels);
            if (text == null) {
                json.writeStartArray();
                json.writeEndArray();
            } else {
                // Re-tokenised rather than written raw: PostgreSQL's json text has spaces the API's answers do not.
                try (JsonParser parser = Json.mapper().getFactory().createParser(text)) {
                    parser.nextToken();
                    json.copyCurrentStructure(parser);
                }
            }
            json.writeEndObject();
        };
    }

    private static JsonRows.FieldWriter[] fields(ResultSet rs, List<Column> columns) throws SQLException {
        JsonRows.FieldWriter[] fields = new JsonRows.FieldWriter[columns.size()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = JsonRows.field(columns.get(i), rs);
        }
        return fields;
    }

    long count(Handle handle, UUID workspaceId, IssueFilter filter) {
        return IssueListSql.count(handle, workspaceId, filter).mapTo(Long.class).one();
    }

    /** Adds each item's labels, with one query for the whole page. */
    private static List<ObjectNode> withLabels(Handle handle, UUID workspaceId, IssueKind kind,
            List<ObjectNode> issues) {
        if (issues.isEmpty()) {
            return issues;
        }
        Map<UUID, ArrayNode> byIssue = new HashMap<>();
        handle.createQuery("SELECT x." + kind.refColumn + " AS issue_id, l.id, l.name, l.color FROM " + kind.labelTable
                        + " x JOIN issues.labels l ON l.id = x.label_id WHERE x.workspace_id = :workspace_id AND x."
                        + kind.refColumn + " = ANY(:ids) ORDER BY lower(l.name)")
                .bind("workspace_id", workspaceId)
                .bindArray("ids", UUID.class, issues.stream().map(i -> UUID.fromString(i.get("id").asText())).toList())
                .map((rs, ctx) -> {
                    ObjectNode label = LabelRepository.row(rs);
                    byIssue.computeIfAbsent(rs.getObject("issue_id", UUID.class), k -> Json.mapper().createArrayNode())
                            .add(label);
                    return label;
                })
                .list();
        for (ObjectNode issue : issues) {
            issue.set("labels", byIssue.getOrDefault(UUID.fromString(issue.get("id").asText()),
                    Json.mapper().createArrayNode()));
        }
        return issues;
    }

    private static Ref ref(ResultSet rs) throws SQLException {
        return new Ref(rs.getObject("id", UUID.class), IssueKind.of(rs.getString("kind")),
                rs.getObject("project_id", UUID.class));
    }

    private static ObjectNode row(ResultSet rs, IssueKind kind) throws SQLException {
        ObjectNode issue = Json.object();
        issue.put("id", rs.getString("id"));
        issue.put("kind", kind.key);
        for (Column column : FIELDS) {
            issue.set(column.name(), column.readJson(rs));
        }
        for (Column column : AUDIT) {
            issue.set(column.name(), column.readJson(rs));
        }
        return issue;
    }
}
