package dev.lnp.json.rows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.http.Page;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.sql.Column;
import dev.lnp.api.sql.JsonRows;
import dev.lnp.api.sql.RowCodec;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.function.LongSupplier;
import org.jdbi.v3.core.argument.Argument;
import org.jdbi.v3.core.statement.Query;

/** The platform's {@link RowCodec}, provided to the API through {@link java.util.ServiceLoader}. */
public final class PlatformRowCodec implements RowCodec {

    @Override
    public JsonRows page(Query query, JsonRows.RowWriterFactory rows, Page pagination) {
        return StreamedJsonRows.of(query, rows, pagination);
    }

    @Override
    public JsonRows pageWithTotal(Query query, JsonRows.RowWriterFactory rows, PageRequest request,
            LongSupplier totalWhenEmpty) {
        return StreamedJsonRows.withTotal(query, rows, request, totalWhenEmpty);
    }

    @Override
    public JsonRows.FieldWriter field(Column column, ResultSet rs) throws SQLException {
        return ColumnFieldWriters.field(column, rs);
    }

    @Override
    public JsonRows.FieldWriter timestampField(String name, ResultSet rs) throws SQLException {
        return ColumnFieldWriters.timestampField(name, rs);
    }

    @Override
    public String isoUtc(ResultSet rs, int index) throws SQLException {
        return BinaryTimestamptz.isoUtc(rs, index);
    }

    @Override
    public Object fromJson(Column column, JsonNode node) {
        return ColumnValues.fromJson(column, node);
    }

    @Override
    public Argument argument(Column column, Object value) {
        return ColumnValues.argument(column, value);
    }

    @Override
    public Object read(Column column, ResultSet rs) throws SQLException {
        return ColumnValues.read(column, rs);
    }

    @Override
    public JsonNode readJson(Column column, ResultSet rs, int index) throws SQLException {
        return ColumnValues.readJson(column, rs, index);
    }
}
