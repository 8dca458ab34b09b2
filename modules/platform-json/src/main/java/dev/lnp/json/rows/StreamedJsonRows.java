package dev.lnp.json.rows;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.Page;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.mcp.ToolResult;
import dev.lnp.api.sql.JsonRows;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.result.ResultIterator;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * The platform's {@link JsonRows}: a list page written from a JDBC result set straight into JSON, no node per row,
 * no list of rows.
 *
 * <ul>
 *   <li>REST: the query runs when the handler returns {@code response()} (its errors are the handler's), and the
 *   driver holds the page's rows (a page is bounded by its limit); the platform writes them when it renders the
 *   response, still inside the request's workspace transaction, every row straight from the result set into the
 *   response's JSON generator.</li>
 *   <li>MCP: a tool result outlives its transaction, so the query runs at once and the rows are written into one
 *   byte buffer (JSON, never a tree); each row's {@code id} column (a UUID) becomes an {@link EntityRef} with
 *   action {@code read}.</li>
 * </ul>
 *
 * Buffered rows written as text (a String) are the same JSON text; serialising them into a tree
 * ({@code valueToTree}) or another format replays them as ordinary JSON tokens, so tests and tree consumers see
 * normal nodes. With a total in the rows, the pagination is known once the rows are written (the envelope writes
 * {@code data} first). Each row is written by the plugin's {@link RowWriter}, from the field writers of
 * {@link ColumnFieldWriters}.
 */
final class StreamedJsonRows implements JsonRows, JsonSerializable {

    private static final JsonFactory FACTORY = Json.mapper().getFactory();
    /** Tool results are buffered: start the next buffer at about the last one's size (one block, no regrowing). */
    private static final int LARGEST_FIRST_BUFFER = 1 << 20;
    private static volatile int lastBufferedSize = 8192;

    private final Query query;
    private final RowWriterFactory rows;
    /** For a total read with the rows (else null): the page asked for, and the count when no row carried it. */
    private final PageRequest request;
    private final LongSupplier totalWhenEmpty;
    private Page pagination;
    /** Set once the rows were buffered (tool results): the JSON array's UTF-8 bytes. */
    private RowBytes buffered;
    private boolean consumed;
    /** The page's statement once run ({@link #execute}), its rows not yet written. */
    private ResultIterator<Void> executed;
    /** Where the rows go, and who hears of each row's id: set before they are written. */
    private JsonGenerator target;
    private IdSink ids;
    private long totalInRows = -1;

    private StreamedJsonRows(Query query, RowWriterFactory rows, Page pagination, PageRequest request,
            LongSupplier totalWhenEmpty) {
        this.query = query;
        this.rows = rows;
        this.pagination = pagination;
        this.request = request;
        this.totalWhenEmpty = totalWhenEmpty;
    }

    /**
     * One page: the rows of a bound query, written by {@code rows}, and the page's pagination (count first, then
     * hand the page query over). The query runs when the answer is made ({@link #response}, {@link #toolResult}).
     */
    static StreamedJsonRows of(Query query, RowWriterFactory rows, Page pagination) {
        return new StreamedJsonRows(query, rows, pagination, null, null);
    }

    /**
     * One page whose query also selects the page's total in column {@value #TOTAL_COLUMN} (an uncorrelated
     * subquery, the same value on every row): one statement instead of a count and a page. A page with no row
     * (past the end, an empty list) carries no total, so then {@code totalWhenEmpty} counts it with a statement
     * of its own.
     */
    static StreamedJsonRows withTotal(Query query, RowWriterFactory rows, PageRequest request,
            LongSupplier totalWhenEmpty) {
        return new StreamedJsonRows(query, rows, null, request, totalWhenEmpty);
    }

    /** The page's pagination; for {@link #withTotal} rows, known once the rows are written. */
    @Override
    public Page pagination() {
        if (pagination == null) {
            throw new IllegalStateException("this page's total is read with its rows: write the rows first");
        }
        return pagination;
    }

    /**
     * A REST list response: the rows as {@code data} beside {@code pagination}, streamed when the response is
     * written. For {@link #withTotal} rows the response's pagination is null and the platform asks
     * {@link #pagination()} once {@code data} is written.
     */
    @Override
    public ApiResponse response() {
        execute();
        return ApiResponse.page(this, pagination);
    }

    /**
     * A tool's list result, {@code {"items": [...], "pagination": {...}}}, with every listed row as an entity that
     * was read. Runs the query now (a tool result is written after its transaction ended).
     */
    @Override
    public ToolResult toolResult(String entityType) {
        List<EntityRef> read = new ArrayList<>();
        ids = (rs, index) -> read.add(new EntityRef(entityType, rs.getObject(index, UUID.class), "read"));
        execute();
        RowBytes written = new RowBytes(Math.min(lastBufferedSize + lastBufferedSize / 8, LARGEST_FIRST_BUFFER));
        try (JsonGenerator json = FACTORY.createGenerator(written)) {
            stream(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        buffered = written;
        lastBufferedSize = written.length;
        return new ToolResult(new ToolData(this, pagination()), read);
    }

    /** The data of {@link #toolResult}: written field by field, the rows as they were buffered. */
    private record ToolData(StreamedJsonRows items, Page pagination) implements JsonSerializable {
        @Override
        public void serialize(JsonGenerator json, SerializerProvider serializers) throws IOException {
            json.writeStartObject();
            json.writeFieldName("items");
            items.serialize(json, serializers);
            json.writeFieldName("pagination");
            pagination.write(json);
            json.writeEndObject();
        }

        @Override
        public void serializeWithType(JsonGenerator json, SerializerProvider serializers, TypeSerializer type)
                throws IOException {
            serialize(json, serializers);
        }
    }

    @Override
    public void serialize(JsonGenerator json, SerializerProvider serializers) throws IOException {
        if (buffered != null) {
            if (json instanceof UTF8JsonGenerator && json.getOutputTarget() instanceof OutputStream out) {
                // The bytes are JSON already: mark the value written (separators, context), then hand them on.
                json.writeRawValue("");
                json.flush();
                out.write(buffered.bytes, 0, buffered.length);
            } else if (json.getOutputTarget() instanceof Writer) {
                json.writeRawValue(new String(buffered.bytes, 0, buffered.length, StandardCharsets.UTF_8));
            } else {
                // A tree (valueToTree) or another format: ordinary tokens, so consumers see normal values.
                try (JsonParser parser = FACTORY.createParser(buffered.bytes, 0, buffered.length)) {
                    parser.nextToken();
                    json.copyCurrentStructure(parser);
                }
            }
            return;
        }
        if (consumed) {
            throw new IllegalStateException("JsonRows are written once: the result set is gone");
        }
        consumed = true;
        execute();
        stream(json);
    }

    @Override
    public void serializeWithType(JsonGenerator json, SerializerProvider serializers, TypeSerializer type)
            throws IOException {
        serialize(json, serializers);
    }

    /** Called with each row's {@code id} column position, for tool results. */
    private interface IdSink {
        void row(ResultSet rs, int idColumn) throws SQLException;
    }

    /**
     * Runs the page's statement, once, and reads its first row: the driver then holds the page's rows, which
     * {@link #stream} writes. An empty page of {@link #withTotal} rows is counted now.
     */
    private void execute() {
        if (executed != null) {
            return;
        }
        if (query.getHandle().isClosed()) {
            throw new IllegalStateException("JsonRows run after their transaction ended: return "
                    + "toolResult(...) from tools, response() from REST handlers");
        }
        executed = query.map(new RowMapper<Void>() {
            @Override
            public Void map(ResultSet rs, StatementContext ctx) throws SQLException {
                return specialize(rs, ctx).map(rs, ctx);
            }

            @Override
            public RowMapper<Void> specialize(ResultSet rs, StatementContext ctx) throws SQLException {
                RowWriter writer = rows.prepare(rs);
                int id = ids == null ? -1 : rs.findColumn("id");
                int total = request == null ? -1 : rs.findColumn(TOTAL_COLUMN);
                return (row, context) -> {
                    if (total > 0 && totalInRows < 0) {
                        totalInRows = row.getLong(total);
                    }
                    try {
                        writer.write(row, target);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    if (ids != null) {
                        ids.row(row, id);
                    }
                    return null;
                };
            }
        }).iterator();
        if (request != null && !executed.hasNext()) {
            // The rows' result set is closed once found empty: the count runs on the same connection.
            pagination = Page.of(request, totalWhenEmpty.getAsLong());
        }
    }

    /** Writes the rows {@link #execute} read as one JSON array. */
    private void stream(JsonGenerator json) throws IOException {
        target = json;
        json.writeStartArray();
        try (ResultIterator<Void> rowsLeft = executed) {
            while (rowsLeft.hasNext()) {
                rowsLeft.next();
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        json.writeEndArray();
        if (request != null && pagination == null) {
            pagination = Page.of(request, totalInRows);
        }
    }
}
