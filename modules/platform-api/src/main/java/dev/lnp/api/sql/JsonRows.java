package dev.lnp.api.sql;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.Page;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.mcp.ToolResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * A list page written from a JDBC result set straight into JSON: no node per row, no list of rows. REST list
 * routes and MCP list tools share it.
 *
 * <ul>
 *   <li>REST: {@code return rows.response()} from the handler. The query runs while the platform writes the
 *   response, still inside the request's workspace transaction, and every row goes straight from the result set
 *   into the response's JSON generator.</li>
 *   <li>MCP: {@code return rows.toolResult("contact")}. A tool result outlives its transaction, so the
 *   query runs at once and the rows are written into one byte buffer (JSON, never a tree); each row's {@code id}
 *   column (a UUID) becomes an {@link EntityRef} with action {@code read}. The data is
 *   {@code {"items": [...], "pagination": {...}}}, the same content as the REST envelope.</li>
 * </ul>
 *
 * A {@link RowWriter} writes one row as one JSON value; {@link #column} and {@link #timestamp} write a column as a
 * field, the same JSON as {@link Column#readJson} (timestamps from PostgreSQL's text, without a date-time object).
 * Serialising into anything other than a UTF-8 byte generator (a tree with {@code valueToTree}, a String)
 * replays the rows as ordinary JSON tokens, so tests and tree consumers see normal nodes.
 */
public final class JsonRows implements JsonSerializable {

    /** Writes the current row of the result set as one JSON value (usually an object). */
    @FunctionalInterface
    public interface RowWriter {
        void write(ResultSet rs, JsonGenerator json) throws SQLException, IOException;
    }

    /** Prepares a {@link RowWriter} once per result set: look column positions up here, not per row. */
    @FunctionalInterface
    public interface RowWriterFactory {
        RowWriter prepare(ResultSet rs) throws SQLException;
    }

    private static final JsonFactory FACTORY = Json.mapper().getFactory();

    private final Query query;
    private final RowWriterFactory rows;
    private final Page pagination;
    /** Set once the rows were buffered (tool results): the JSON array's UTF-8 bytes. */
    private byte[] buffered;
    private boolean consumed;

    private JsonRows(Query query, RowWriterFactory rows, Page pagination) {
        this.query = query;
        this.rows = rows;
        this.pagination = pagination;
    }

    /**
     * One page: the rows of a bound query, written by {@code rows}, and the page's pagination (count first, then
     * hand the page query over). Nothing runs until the rows are written.
     */
    public static JsonRows of(Query query, RowWriterFactory rows, Page pagination) {
        return new JsonRows(query, rows, pagination);
    }

    public Page pagination() {
        return pagination;
    }

    /** A REST list response: the rows as {@code data} beside {@code pagination}, streamed when the response is written. */
    public ApiResponse response() {
        return ApiResponse.page(this, pagination);
    }

    /**
     * A tool's list result, {@code {"items": [...], "pagination": {...}}}, with every listed row as an entity that
     * was read. Runs the query now (a tool result is written after its transaction ended).
     */
    public ToolResult toolResult(String entityType) {
        List<EntityRef> read = new ArrayList<>();
        ByteArrayBuilder bytes = new ByteArrayBuilder(FACTORY._getBufferRecycler(), 8192);
        try (JsonGenerator json = FACTORY.createGenerator(bytes)) {
            stream(json, (rs, index) -> read.add(new EntityRef(entityType, UUID.fromString(rs.getString(index)), "read")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        buffered = bytes.toByteArray();
        bytes.release();
        return new ToolResult(new ToolData(this, pagination), read);
    }

    /** The data of {@link #toolResult}: written field by field, the rows as they were buffered. */
    private record ToolData(JsonRows items, Page pagination) implements JsonSerializable {
        @Override
        public void serialize(JsonGenerator json, SerializerProvider serializers) throws IOException {
            json.writeStartObject();
            json.writeFieldName("items");
            items.serialize(json, serializers);
            json.writeFieldName("pagination");
            serializers.defaultSerializeValue(pagination, json);
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
            if (json instanceof UTF8JsonGenerator) {
                json.writeRawValue(new RawUtf8(buffered));
            } else {
                // A tree (valueToTree), a String or another format: ordinary tokens, so consumers see normal values.
                try (JsonParser parser = FACTORY.createParser(buffered)) {
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
        stream(json, null);
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

    private void stream(JsonGenerator json, IdSink ids) throws IOException {
        if (query.getHandle().isClosed()) {
            throw new IllegalStateException("JsonRows written after their transaction ended: return "
                    + "toolResult(...) from tools, response() from REST handlers");
        }
        json.writeStartArray();
        try {
            query.map(new RowMapper<Void>() {
                @Override
                public Void map(ResultSet rs, StatementContext ctx) throws SQLException {
                    return specialize(rs, ctx).map(rs, ctx);
                }

                @Override
                public RowMapper<Void> specialize(ResultSet rs, StatementContext ctx) throws SQLException {
                    RowWriter writer = rows.prepare(rs);
                    int id = ids == null ? -1 : rs.findColumn("id");
                    return (row, context) -> {
                        try {
                            writer.write(row, json);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        if (ids != null) {
                            ids.row(row, id);
                        }
                        return null;
                    };
                }
            }).forEach(ignored -> { });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        json.writeEndArray();
    }

    // ---- writing columns -----------------------------------------------------------------------------------

    /**
     * Writes {@code column}'s value at {@code index} as the field of its name, the same JSON that
     * {@link Column#readJson} gives.
     */
    public static void column(Column column, ResultSet rs, int index, JsonGenerator json) throws SQLException, IOException {
        json.writeFieldName(column.name());
        switch (column.type()) {
            case TEXT -> textValue(rs, index, json);
            case UUID -> stringOrNull(rs.getString(index), json);
            case DATE -> {
                LocalDate date = rs.getObject(index, LocalDate.class);
                stringOrNull(date == null ? null : date.toString(), json);
            }
            case TIMESTAMP -> timestampValue(rs, index, json);
            case NUMBER -> {
                BigDecimal value = rs.getBigDecimal(index);
                if (value == null) {
                    json.writeNull();
                } else {
                    BigDecimal stripped = value.stripTrailingZeros();
                    json.writeNumber(stripped.scale() < 0 ? stripped.setScale(0) : stripped);
                }
            }
            case BOOLEAN -> {
                boolean value = rs.getBoolean(index);
                if (rs.wasNull()) {
                    json.writeNull();
                } else {
                    json.writeBoolean(value);
                }
            }
            case TEXT_ARRAY -> {
                json.writeStartArray();
                Array array = rs.getArray(index);
                if (array != null) {
                    for (Object value : (Object[]) array.getArray()) {
                        stringOrNull((String) value, json);
                    }
                    array.free();
                }
                json.writeEndArray();
            }
            case JSON -> {
                String text = rs.getString(index);
                if (text == null || text.equals("{}")) {
                    json.writeStartObject();
                    json.writeEndObject();
                } else {
                    // Re-tokenised rather than written raw: the response stays compact and one JSON style.
                    try (JsonParser parser = FACTORY.createParser(text)) {
                        parser.nextToken();
                        json.copyCurrentStructure(parser);
                    }
                }
            }
        }
    }

    /** Writes a {@code timestamptz} column as the field {@code name}: ISO 8601 in UTC ({@code …Z}), or null. */
    public static void timestamp(String name, ResultSet rs, int index, JsonGenerator json) throws SQLException, IOException {
        json.writeFieldName(name);
        timestampValue(rs, index, json);
    }

    private static void timestampValue(ResultSet rs, int index, JsonGenerator json) throws SQLException, IOException {
        // As a date-time, not as text: once the driver prepares the statement it receives timestamptz in binary,
        // and its text form would be formatted only to be parsed again.
        OffsetDateTime value = rs.getObject(index, OffsetDateTime.class);
        if (value == null) {
            json.writeNull();
        } else {
            writeIsoUtc(value, json);
        }
    }

    /**
     * Writes the instant as {@link DateTimeFormatter#ISO_OFFSET_DATE_TIME} formats it in UTC
     * ({@code 2026-11-21T13:05:01.12345Z}: seconds always, the fraction without trailing zeros and left out when
     * zero), without the formatter's machinery for the years 1000 to 9999; other years go through the formatter.
     */
    static void writeIsoUtc(OffsetDateTime value, JsonGenerator json) throws IOException {
        OffsetDateTime utc = value.getOffset().equals(ZoneOffset.UTC) ? value : value.withOffsetSameInstant(ZoneOffset.UTC);
        int year = utc.getYear();
        if (year < 1000 || year > 9999) {
            json.writeString(DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(utc));
            return;
        }
        char[] out = new char[30];
        digits(out, 0, year, 4);
        out[4] = '-';
        digits(out, 5, utc.getMonthValue(), 2);
        out[7] = '-';
        digits(out, 8, utc.getDayOfMonth(), 2);
        out[10] = 'T';
        digits(out, 11, utc.getHour(), 2);
        out[13] = ':';
        digits(out, 14, utc.getMinute(), 2);
        out[16] = ':';
        digits(out, 17, utc.getSecond(), 2);
        int end = 19;
        int nanos = utc.getNano();
        if (nanos != 0) {
            out[end++] = '.';
            int digits = 9;
            while (nanos % 10 == 0) {
                nanos /= 10;
                digits--;
            }
            digits(out, end, nanos, digits);
            end += digits;
        }
        out[end++] = 'Z';
        json.writeString(out, 0, end);
    }

    private static void digits(char[] out, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            out[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    /**
     * A character column is written from its bytes as they came from PostgreSQL, which are UTF-8 (the driver's
     * client encoding), escaped by the generator: no String is decoded per value and encoded again (that was a
     * tenth of a list page's CPU). A column declared TEXT that is not of a character type is read as a String, since
     * its bytes may be a binary encoding.
     */
    private static void textValue(ResultSet rs, int index, JsonGenerator json) throws SQLException, IOException {
        int type = rs.getMetaData().getColumnType(index);
        if (type == Types.VARCHAR || type == Types.CHAR || type == Types.LONGVARCHAR) {
            byte[] utf8 = rs.getBytes(index);
            if (utf8 == null) {
                json.writeNull();
            } else {
                json.writeUTF8String(utf8, 0, utf8.length);
            }
        } else {
            stringOrNull(rs.getString(index), json);
        }
    }

    private static void stringOrNull(String value, JsonGenerator json) throws IOException {
        if (value == null) {
            json.writeNull();
        } else {
            json.writeString(value);
        }
    }

    /**
     * Buffered rows as a raw value: copied straight into the generator's output buffer. Only ever handed to
     * {@code writeRawValue}, which asks for the unquoted bytes; the quoted forms (for field names and strings) have
     * no meaning for already-written JSON and are refused.
     */
    private record RawUtf8(byte[] bytes) implements com.fasterxml.jackson.core.SerializableString {
        @Override
        public String getValue() {
            return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        }

        @Override
        public int charLength() {
            return getValue().length();
        }

        @Override
        public char[] asQuotedChars() {
            throw new UnsupportedOperationException();
        }

        @Override
        public byte[] asUnquotedUTF8() {
            return bytes;
        }

        @Override
        public byte[] asQuotedUTF8() {
            throw new UnsupportedOperationException();
        }

        @Override
        public int appendQuotedUTF8(byte[] buffer, int offset) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int appendQuoted(char[] buffer, int offset) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int appendUnquotedUTF8(byte[] buffer, int offset) {
            if (offset + bytes.length > buffer.length) {
                return -1;
            }
            System.arraycopy(bytes, 0, buffer, offset, bytes.length);
            return bytes.length;
        }

        @Override
        public int appendUnquoted(char[] buffer, int offset) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int writeQuotedUTF8(java.io.OutputStream out) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int writeUnquotedUTF8(java.io.OutputStream out) throws IOException {
            out.write(bytes);
            return bytes.length;
        }

        @Override
        public int putQuotedUTF8(java.nio.ByteBuffer buffer) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int putUnquotedUTF8(java.nio.ByteBuffer buffer) {
            if (buffer.remaining() < bytes.length) {
                return -1;
            }
            buffer.put(bytes);
            return bytes.length;
        }
    }
}
