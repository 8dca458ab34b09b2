package dev.lnp.api.sql;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.http.Page;
import dev.lnp.api.http.PageRequest;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ServiceLoader;
import java.util.function.LongSupplier;
import org.jdbi.v3.core.argument.Argument;
import org.jdbi.v3.core.statement.Query;

/**
 * How rows are read, bound and written as JSON: implemented by the platform and found with {@link ServiceLoader},
 * once. Plugins call {@link JsonRows} and {@link Column}, which hand every call on to {@link #PLATFORM}.
 */
public interface RowCodec {

    /** The platform's implementation, resolved when a plugin first reads or writes a column. */
    RowCodec PLATFORM = ServiceLoader.load(RowCodec.class, RowCodec.class.getClassLoader()).findFirst()
            .orElseThrow(() -> new IllegalStateException("no " + RowCodec.class.getName()
                    + " on the module or class path: the platform's JSON library, lnp.platform.json, provides it"));

    JsonRows page(Query query, JsonRows.RowWriterFactory rows, Page pagination);

    JsonRows pageWithTotal(Query query, JsonRows.RowWriterFactory rows, PageRequest request,
            LongSupplier totalWhenEmpty);

    JsonRows.FieldWriter field(Column column, ResultSet rs) throws SQLException;

    JsonRows.FieldWriter timestampField(String name, ResultSet rs) throws SQLException;

    String isoUtc(ResultSet rs, int index) throws SQLException;

    Object fromJson(Column column, JsonNode node);

    Argument argument(Column column, Object value);

    Object read(Column column, ResultSet rs) throws SQLException;

    JsonNode readJson(Column column, ResultSet rs, int index) throws SQLException;
}
