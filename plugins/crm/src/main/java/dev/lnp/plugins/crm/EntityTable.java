package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.sql.Column;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
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

    private final String table;
    private final List<Column> columns;

    EntityTable(String table, List<Column> columns) {
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

    /** {@code INSERT ... RETURNING *} for the body's fields; the workspace is bound as {@code :workspace_id}. */
    private String insertSql(List<Column> present) {
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
        ObjectNode out = Json.object();
        out.put("id", rs.getObject("id", UUID.class).toString());
        for (Column column : columns) {
            out.set(column.name(), Json.mapper().valueToTree(column.read(rs)));
        }
        out.put("created_at", timestamp(rs, "created_at"));
        out.put("updated_at", timestamp(rs, "updated_at"));
        return out;
    }

    private static String timestamp(ResultSet rs, String column) throws SQLException {
        return rs.getObject(column, OffsetDateTime.class).withOffsetSameInstant(ZoneOffset.UTC)
                .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    }
}
