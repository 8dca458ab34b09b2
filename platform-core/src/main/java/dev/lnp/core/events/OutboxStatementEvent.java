package dev.lnp.core.events;

import dev.lnp.api.events.StatementEvent;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.SqlStatement;
import org.jdbi.v3.core.statement.StatementContext;

/** The outbox insert of one registered event as a step of the plugin's own statement (see {@link StatementEvent}). */
record OutboxStatementEvent(UUID workspaceId, String canonicalName, int maxPayloadBytes) implements StatementEvent {

    @Override
    public String step(String source, String payloadSql) {
        // Casts, because a parameter in an INSERT's SELECT list takes no type from the target column.
        return "INSERT INTO lnp_core.outbox (workspace_id, event_name, payload)"
                + " SELECT CAST(:lnp_event_workspace AS uuid), CAST(:lnp_event_name AS text), " + payloadSql
                + " FROM " + source + " RETURNING octet_length(payload::text) AS " + SIZE_COLUMN;
    }

    @Override
    public <S extends SqlStatement<S>> S bind(S statement) {
        return statement.bind("lnp_event_workspace", workspaceId).bind("lnp_event_name", canonicalName);
    }

    @Override
    public <T> RowMapper<T> checked(RowMapper<T> rows) {
        return new RowMapper<>() {
            @Override
            public T map(ResultSet rs, StatementContext ctx) throws SQLException {
                return specialize(rs, ctx).map(rs, ctx);
            }

            @Override
            public RowMapper<T> specialize(ResultSet rs, StatementContext ctx) throws SQLException {
                int size = rs.findColumn(SIZE_COLUMN);
                RowMapper<T> inner = rows.specialize(rs, ctx);
                return (row, context) -> {
                    OutboxPublisher.checkSize(canonicalName, row.getLong(size), maxPayloadBytes);
                    return inner.map(row, context);
                };
            }
        };
    }
}
