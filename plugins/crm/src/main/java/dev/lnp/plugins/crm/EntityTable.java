package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.events.StatementEvent;
import dev.lnp.api.sql.Column;
import dev.lnp.api.sql.JsonRows;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.SqlStatement;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * A CRM table whose writable columns are exactly the fields of its JSON body. Statement text is assembled only
 * from these fixed column names; every value is a bound parameter.
 */
final class EntityTable implements RowMapper<ObjectNode> {

    /** Every row's key, written first; never null, so the same JSON as the string {@link #map} puts. */
    private static final Column ID = Column.uuid("id");

    private final String table;
    private final List<Column> columns;
    /** Insert statements by the set of columns a body names (bit i: column i), built once each. */
    private final java.util.concurrent.ConcurrentHashMap<Long, String> inserts = new java.util.concurrent.ConcurrentHashMap<>();
    /** {@link #payloadSql}, built at its first use (a table with a column it cannot express never asks). */
    private volatile String payloadSql;

    EntityTable(String table, List<Column> columns) {
        if (columns.size() > Long.SIZE) {
            throw new IllegalArgumentException("at most " + Long.SIZE + " columns: " + table);
        }
        this.table = table;
        this.columns = List.copyOf(columns);
    }

    String table() {
        return table;
    }

    /** {@code INSERT ... RETURNING *} of the body's fields in the workspace, bound and ready to map. */
    Query insert(Handle handle, UUID workspaceId, JsonNode body) {
        List<Column> present = present(body);
        Query statement = handle.createQuery(insertSql(present)).bind("workspace_id", workspaceId);
        bind(statement, present, body);
        return statement;
    }

    /**
     * The insert plus its {@code followUps} and the event {@code created} in the same statement (each follow-up is a
     * data-modifying statement that reads the new row from {@code inserted}, e.g. a counter update or the activity
     * entry; the caller binds their parameters), the event's payload
     * the new row as {@link #map} gives it ({@link #payloadSql}): the row, its follow-up and its event in one
     * round trip. Map the answer with {@code created.checked(...)}, which enforces the event's size limit.
     */
    Query insert(Handle handle, UUID workspaceId, JsonNode body, StatementEvent created, String... followUps) {
        List<Column> present = present(body);
        StringBuilder sql = new StringBuilder("WITH inserted AS (").append(insertSql(present)).append(")");
        for (int i = 0; i < followUps.length; i++) {
            sql.append(", follow_up_").append(i).append(" AS (").append(followUps[i]).append(")");
        }
        sql.append(", event AS (").append(created.step("inserted", payloadSql())).append(") SELECT inserted.*, ")
                .append(created.sizeOf("event")).append(" FROM inserted");
        Query statement = created.bind(handle.createQuery(sql.toString())).bind("workspace_id", workspaceId);
        bind(statement, present, body);
        return statement;
    }

    /**
     * The row as a {@code jsonb} expression with the same fields and values as {@link #map}: ids as strings,
     * absent collections as empty ones, timestamps in UTC as {@link #timestamp} writes them (ISO-8601, fraction
     * without trailing zeros, {@code Z}). Only column types whose SQL form is that JSON are supported.
     */
    String payloadSql() {
        String sql = payloadSql;
        if (sql == null) {
            payloadSql = sql = buildPayloadSql();
        }
        return sql;
    }

    private String buildPayloadSql() {
        List<String> members = new ArrayList<>(List.of("'id', id"));
        for (Column column : columns) {
            members.add("'" + column.name() + "', " + switch (column.type()) {
                case TEXT, UUID -> column.name();
                case TEXT_ARRAY -> "coalesce(" + column.name() + ", '{}'::text[])";
                case JSON -> "coalesce(" + column.name() + ", '{}'::jsonb)";
                default -> throw new IllegalStateException(
                        "column " + column.name() + " of type " + column.type() + " has no payload SQL here");
            });
        }
        members.add("'created_at', " + timestampSql("created_at"));
        members.add("'updated_at', " + timestampSql("updated_at"));
        return "jsonb_build_object(" + String.join(", ", members) + ")";
    }

    /** {@link #timestamp} in SQL: PostgreSQL keeps microseconds, so at most six fraction digits to trim. */
    static String timestampSql(String column) {
        return "to_char(" + column + " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS') || rtrim(rtrim(to_char("
                + column + ", '.US'), '0'), '.') || 'Z'";
    }

    /** {@code UPDATE ... RETURNING *} of the body's fields of one row of the workspace, bound and ready to map. */
    Query update(Handle handle, UUID workspaceId, UUID id, JsonNode body) {
        List<Column> present = present(body);
        Query statement = handle.createQuery(updateSql(present)).bind("workspace_id", workspaceId).bind("id", id);
        bind(statement, present, body);
        return statement;
    }

    /** The columns named by the body's fields, in table order. The schema has already refused any other field. */
    private List<Column> present(JsonNode body) {
        return columns.stream().filter(c -> body.has(c.name())).toList();
    }

    /**
     * {@code INSERT ... RETURNING *} for the body's fields; the workspace is bound as {@code :workspace_id}. Built
     * once per set of columns: joining the names was 2 % of a POST's CPU.
     */
    private String insertSql(List<Column> present) {
        // present is a subsequence of columns (same instances, table order)
        long set = 0;
        for (int i = 0, next = 0; i < columns.size() && next < present.size(); i++) {
            if (columns.get(i) == present.get(next)) {
                set |= 1L << i;
                next++;
            }
        }
        return inserts.computeIfAbsent(set, ignored -> buildInsertSql(present));
    }

    private String buildInsertSql(List<Column> present) {
        List<String> names = new ArrayList<>(List.of("workspace_id"));
        List<String> values = new ArrayList<>(List.of(":workspace_id"));
        present.forEach(c -> {
            names.add(c.name());
            values.add(":" + c.name());
        });
        return "INSERT INTO " + table + " (" + String.join(", ", names) + ") VALUES (" + String.join(", ", values)
                + ") RETURNING *";
    }

    /** {@code UPDATE ... RETURNING *} of the given columns of one row, bound as {@code :id} and {@code :workspace_id}. */
    private String updateSql(List<Column> present) {
        List<String> sets = new ArrayList<>();
        present.forEach(c -> sets.add(c.name() + " = :" + c.name()));
        sets.add("updated_at = now()");
        return "UPDATE " + table + " SET " + String.join(", ", sets)
                + " WHERE workspace_id = :workspace_id AND id = :id RETURNING *";
    }

    private static void bind(SqlStatement<?> statement, List<Column> present, JsonNode body) {
        present.forEach(c -> c.bind(statement, c.fromJson(body.get(c.name()))));
    }

    @Override
    public ObjectNode map(ResultSet rs, StatementContext ctx) throws SQLException {
        return specialize(rs, ctx).map(rs, ctx);
    }

    /** Finds each column's position once per result set, not once per row and field. */
    @Override
    public RowMapper<ObjectNode> specialize(ResultSet rs, StatementContext ctx) throws SQLException {
        int id = rs.findColumn("id");
        int[] positions = new int[columns.size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = rs.findColumn(columns.get(i).name());
        }
        int createdAt = rs.findColumn("created_at");
        int updatedAt = rs.findColumn("updated_at");
        return (row, context) -> {
            ObjectNode out = Json.object();
            out.put("id", row.getString(id));
            for (int i = 0; i < positions.length; i++) {
                out.set(columns.get(i).name(), columns.get(i).readJson(row, positions[i]));
            }
            out.put("created_at", timestamp(row, createdAt));
            out.put("updated_at", timestamp(row, updatedAt));
            return out;
        };
    }

    /**
     * Writes each row straight into a JSON generator (list pages, see {@link JsonRows}): the same fields, in the
     * same order and form, as {@link #map}, without a node per row.
     */
    JsonRows.RowWriter writer(ResultSet rs) throws SQLException {
        JsonRows.FieldWriter[] fields = new JsonRows.FieldWriter[columns.size() + 3];
        fields[0] = JsonRows.field(ID, rs);
        for (int i = 0; i < columns.size(); i++) {
            fields[i + 1] = JsonRows.field(columns.get(i), rs);
        }
        fields[fields.length - 2] = JsonRows.timestampField("created_at", rs);
        fields[fields.length - 1] = JsonRows.timestampField("updated_at", rs);
        return (row, json) -> {
            json.writeStartObject();
            for (JsonRows.FieldWriter field : fields) {
                field.write(row, json);
            }
            json.writeEndObject();
        };
    }

    static String timestamp(ResultSet rs, int column) throws SQLException {
        return JsonRows.isoUtc(rs, column);
    }
}
