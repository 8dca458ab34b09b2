package dev.lnp.api.sql;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.Page;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.mcp.ToolResult;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.function.LongSupplier;
import org.jdbi.v3.core.statement.Query;

/**
 * A list page that the platform writes from a JDBC result set straight into JSON: no node per row, no list of
 * rows. REST list routes answer {@link #response()}, MCP list tools {@link #toolResult(String)} (the same items
 * and pagination as {@code {"items": [...], "pagination": {...}}}, each row's {@code id} recorded as an entity
 * that was read).
 *
 * <p>A {@link RowWriterFactory} prepares a {@link RowWriter} once per result set, from {@link FieldWriter}s made
 * by {@link #field} and {@link #timestampField}: nothing about a column is looked up again for each cell. With
 * {@link #withTotal} the page query also selects its total as column {@value #TOTAL_COLUMN}, so a list costs one
 * statement and its total and rows come from one snapshot.
 */
public interface JsonRows {

    /** The column in which a {@link #withTotal} page query selects its total (on every row). */
    String TOTAL_COLUMN = "page_total";

    /** Writes the current row of the result set as one JSON value (usually an object). */
    @FunctionalInterface
    interface RowWriter {
        void write(ResultSet rs, JsonGenerator json) throws SQLException, IOException;
    }

    /** Prepares a {@link RowWriter} once per result set: look column positions up here, not per row. */
    @FunctionalInterface
    interface RowWriterFactory {
        RowWriter prepare(ResultSet rs) throws SQLException;
    }

    /** Writes one column of the current row as one JSON field; made once per result set. */
    @FunctionalInterface
    interface FieldWriter {
        void write(ResultSet rs, JsonGenerator json) throws SQLException, IOException;
    }

    /** One page: the rows of a bound query and the page's pagination. Nothing runs until the rows are written. */
    static JsonRows of(Query query, RowWriterFactory rows, Page pagination) {
        return RowCodec.PLATFORM.page(query, rows, pagination);
    }

    /**
     * One page whose query also selects the page's total in column {@value #TOTAL_COLUMN} (an uncorrelated
     * subquery): one statement instead of a count and a page. A page with no row carries no total, so then
     * {@code totalWhenEmpty} counts it with a statement of its own.
     */
    static JsonRows withTotal(Query query, RowWriterFactory rows, PageRequest request, LongSupplier totalWhenEmpty) {
        return RowCodec.PLATFORM.pageWithTotal(query, rows, request, totalWhenEmpty);
    }

    /** A writer of {@code column} (found by its name) as the field of its name: the JSON of {@link Column#readJson}. */
    static FieldWriter field(Column column, ResultSet rs) throws SQLException {
        return RowCodec.PLATFORM.field(column, rs);
    }

    /** A writer of the {@code timestamptz} column {@code name} as ISO 8601 in UTC ({@code …Z}), or null. */
    static FieldWriter timestampField(String name, ResultSet rs) throws SQLException {
        return RowCodec.PLATFORM.timestampField(name, rs);
    }

    /** The {@code timestamptz} column {@code index} of the current row as lists write it, or null. */
    static String isoUtc(ResultSet rs, int index) throws SQLException {
        return RowCodec.PLATFORM.isoUtc(rs, index);
    }

    /** The page's pagination; for {@link #withTotal} rows, known once the rows are written. */
    Page pagination();

    /** A REST list response, {@code data} beside {@code pagination}: runs the query now, writes the rows on render. */
    ApiResponse response();

    /** A tool's list result; runs the query now (a tool result is written after its transaction ended). */
    ToolResult toolResult(String entityType);
}
