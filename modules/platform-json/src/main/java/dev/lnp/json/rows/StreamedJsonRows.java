package dev.lnp.json.rows;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.SerializedString;
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
import dev.lnp.api.sql.Column;
import dev.lnp.api.sql.JsonRows;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
 * {@code data} first). Column values are decoded from PostgreSQL's binary forms where the driver hands them over.
 */
final class StreamedJsonRows implements JsonRows, JsonSerializable {

    private static final JsonFactory FACTORY = Json.mapper().getFactory();
    /** Tool results are buffered: start the next buffer at about the last one's size (one block, no regrowing). */
    private static final int LARGEST_FIRST_BUFFER = 1 << 20;
    private static volatile int lastBufferedSize = 8192;
    /** Reads a binary timestamp's microseconds in place (no buffer object per cell). */
    private static final java.lang.invoke.VarHandle BIG_ENDIAN_LONG =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.BIG_ENDIAN);

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

    // ---- writing columns -----------------------------------------------------------------------------------

    /**
     * A writer of {@code column} (found by its name in {@code rs}) as the field of its name, the same JSON that
     * {@link Column#readJson(ResultSet)} gives. Call it once per result set, from a {@link RowWriterFactory}.
     */
    static FieldWriter field(Column column, ResultSet rs) throws SQLException {
        int index = rs.findColumn(column.name());
        SerializedString name = new SerializedString(column.name());
        return switch (column.type()) {
            case TEXT -> isCharacter(rs, index)
                    ? (row, json) -> {
                        json.writeFieldName(name);
                        utf8OrNull(row.getBytes(index), json);
                    }
                    : (row, json) -> {
                        json.writeFieldName(name);
                        stringOrNull(row.getString(index), json);
                    };
            case UUID -> {
                byte[] buffer = new byte[36];
                yield (row, json) -> {
                    json.writeFieldName(name);
                    uuidValue(row, index, buffer, json);
                };
            }
            case DATE -> (row, json) -> {
                json.writeFieldName(name);
                LocalDate date = row.getObject(index, LocalDate.class);
                stringOrNull(date == null ? null : date.toString(), json);
            };
            case TIMESTAMP -> timestampField(name, index);
            case NUMBER -> (row, json) -> {
                json.writeFieldName(name);
                numberValue(row.getBigDecimal(index), json);
            };
            case BOOLEAN -> (row, json) -> {
                json.writeFieldName(name);
                boolean value = row.getBoolean(index);
                if (row.wasNull()) {
                    json.writeNull();
                } else {
                    json.writeBoolean(value);
                }
            };
            case TEXT_ARRAY -> (row, json) -> {
                json.writeFieldName(name);
                byte[] raw = row.getBytes(index);
                if (raw == null || !writeBinaryTextArray(raw, json)) {
                    textArrayValue(row.getArray(index), json);
                }
            };
            case JSON -> (row, json) -> {
                json.writeFieldName(name);
                jsonValue(row.getString(index), json);
            };
        };
    }

    /**
     * A writer of the {@code timestamptz} column {@code name} as the field of that name: ISO 8601 in UTC
     * ({@code …Z}), or null. Call it once per result set, from a {@link RowWriterFactory}.
     */
    static FieldWriter timestampField(String name, ResultSet rs) throws SQLException {
        return timestampField(new SerializedString(name), rs.findColumn(name));
    }

    private static FieldWriter timestampField(SerializedString name, int index) {
        byte[] buffer = new byte[30];
        return (row, json) -> {
            json.writeFieldName(name);
            timestampValue(row, index, buffer, json);
        };
    }

    /**
     * Whether the driver reports a character type. Only then are the value's bytes the text itself (UTF-8, the
     * driver's client encoding); another type declared TEXT may arrive in a binary encoding and is read as a String.
     */
    private static boolean isCharacter(ResultSet rs, int index) throws SQLException {
        int type = rs.getMetaData().getColumnType(index);
        return type == Types.VARCHAR || type == Types.CHAR || type == Types.LONGVARCHAR;
    }

    private static void numberValue(BigDecimal value, JsonGenerator json) throws IOException {
        if (value == null) {
            json.writeNull();
        } else {
            BigDecimal stripped = value.stripTrailingZeros();
            json.writeNumber(stripped.scale() < 0 ? stripped.setScale(0) : stripped);
        }
    }

    /** The element types whose binary array elements are the text itself: {@code text} and {@code varchar}. */
    private static final int TEXT_OID = 25;
    private static final int VARCHAR_OID = 1043;

    /**
     * A one-dimensional {@code text[]} received in binary (once the driver prepares the statement), written
     * straight from its bytes: each element is the text in the client encoding, UTF-8, so no array object, no
     * String per element. Returns false, having written nothing, for anything else (the text form before the
     * statement is prepared starts with '{'; more dimensions, another element type).
     */
    private static boolean writeBinaryTextArray(byte[] raw, JsonGenerator json) throws IOException {
        if (raw.length < 12 || raw[0] == '{') {
            return false;
        }
        ByteBuffer in = ByteBuffer.wrap(raw);
        int dimensions = in.getInt();
        in.getInt(); // has nulls: each element says so itself
        int elementType = in.getInt();
        if (dimensions > 1 || (elementType != TEXT_OID && elementType != VARCHAR_OID)
                || (dimensions == 1 && raw.length < 20)) {
            return false;
        }
        int count = dimensions == 0 ? 0 : in.getInt();
        if (dimensions == 1) {
            in.getInt(); // lower bound
        }
        json.writeStartArray();
        for (int i = 0; i < count; i++) {
            int length = in.getInt();
            if (length < 0) {
                json.writeNull();
            } else {
                Utf8Text.write(raw, in.position(), length, json);
                in.position(in.position() + length);
            }
        }
        json.writeEndArray();
        return true;
    }

    private static void textArrayValue(Array array, JsonGenerator json) throws SQLException, IOException {
        json.writeStartArray();
        if (array != null) {
            for (Object value : (Object[]) array.getArray()) {
                stringOrNull((String) value, json);
            }
            array.free();
        }
        json.writeEndArray();
    }

    private static void jsonValue(String text, JsonGenerator json) throws IOException {
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

    /** PostgreSQL's binary {@code timestamptz}: microseconds since 2000-01-01T00:00Z. */
    private static final long PG_EPOCH_SECOND = 946_684_800L;
    private static final byte[] INFINITY = "infinity".getBytes(StandardCharsets.US_ASCII);

    /**
     * Once the driver prepares the statement it receives {@code timestamptz} in binary, eight bytes of
     * microseconds, and hands them over as they came: those are written by arithmetic into {@code buffer}, with no
     * date-time object (the driver made six per value). Anything else (text before the statement is prepared,
     * infinity, a year outside 1000–9999) goes through the driver's date-time: the same JSON either way.
     */
    private static void timestampValue(ResultSet rs, int index, byte[] buffer, JsonGenerator json)
            throws SQLException, IOException {
        byte[] raw = rs.getBytes(index);
        if (raw == null) {
            json.writeNull();
            return;
        }
        int length = binaryIsoUtc(raw, buffer);
        if (length > 0) {
            Utf8Text.writeAscii(buffer, length, json);
            return;
        }
        writeIsoUtc(rs.getObject(index, OffsetDateTime.class), json);
    }

    /**
     * The {@code timestamptz} column {@code index} of the current row as lists write it (ISO 8601 in UTC, see
     * {@link #writeIsoUtc}), or null: for a single row's answer, by the same arithmetic as a list's cells (the
     * driver's date-time and {@link DateTimeFormatter} cost about 2 % of a create's CPU).
     */
    static String isoUtc(ResultSet rs, int index) throws SQLException {
        byte[] raw = rs.getBytes(index);
        if (raw == null) {
            return null;
        }
        byte[] buffer = new byte[30];
        int length = binaryIsoUtc(raw, buffer);
        if (length < 0) {
            OffsetDateTime value = rs.getObject(index, OffsetDateTime.class);
            OffsetDateTime utc = value.withOffsetSameInstant(ZoneOffset.UTC);
            if (utc.getYear() < 1000 || utc.getYear() > 9999) {
                return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(utc);
            }
            length = iso(buffer, utc.getYear(), utc.getMonthValue(), utc.getDayOfMonth(), utc.getHour(),
                    utc.getMinute(), utc.getSecond(), utc.getNano());
        }
        return new String(buffer, 0, length, StandardCharsets.US_ASCII);
    }

    /** A binary {@code timestamptz} written into {@code out}; -1 when {@code raw} is text or out of the fast range. */
    private static int binaryIsoUtc(byte[] raw, byte[] out) {
        if (raw.length != 8 || java.util.Arrays.equals(raw, INFINITY)) {
            return -1;
        }
        long micros = (long) BIG_ENDIAN_LONG.get(raw, 0);
        return micros == Long.MAX_VALUE || micros == Long.MIN_VALUE ? -1 : isoUtc(micros, out);
    }

    /**
     * Writes the instant {@code micros} after PostgreSQL's epoch into {@code out} as {@link #writeIsoUtc} does and
     * returns its length, or -1 for a year outside 1000–9999.
     */
    static int isoUtc(long micros, byte[] out) {
        long second = Math.floorDiv(micros, 1_000_000L) + PG_EPOCH_SECOND;
        int micro = (int) Math.floorMod(micros, 1_000_000L);
        long day = Math.floorDiv(second, 86_400L);
        int secondOfDay = (int) Math.floorMod(second, 86_400L);
        // Days to the proleptic Gregorian civil date (H. Hinnant's days_from_civil, inverted), as java.time does.
        long z = day + 719_468L;
        long era = Math.floorDiv(z, 146_097L);
        long dayOfEra = z - era * 146_097L;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long mp = (5 * dayOfYear + 2) / 153;
        int dayOfMonth = (int) (dayOfYear - (153 * mp + 2) / 5 + 1);
        int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        if (year < 1000 || year > 9999) {
            return -1;
        }
        return iso(out, (int) year, month, dayOfMonth, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60,
                micro * 1000);
    }

    /** A {@code uuid} received in binary (16 bytes): written as {@link java.util.UUID#toString} would. */
    private static void uuidValue(ResultSet rs, int index, byte[] buffer, JsonGenerator json)
            throws SQLException, IOException {
        byte[] raw = rs.getBytes(index);
        if (raw == null) {
            json.writeNull();
        } else if (raw.length == 16) {
            int at = 0;
            for (int i = 0; i < 16; i++) {
                if (i == 4 || i == 6 || i == 8 || i == 10) {
                    buffer[at++] = '-';
                }
                buffer[at++] = HEX[(raw[i] >> 4) & 0xF];
                buffer[at++] = HEX[raw[i] & 0xF];
            }
            Utf8Text.writeAscii(buffer, at, json);
        } else {
            stringOrNull(rs.getString(index), json);
        }
    }

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

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
        byte[] out = new byte[30];
        Utf8Text.writeAscii(out, iso(out, year, utc.getMonthValue(), utc.getDayOfMonth(), utc.getHour(),
                utc.getMinute(), utc.getSecond(), utc.getNano()), json);
    }

    /** {@code yyyy-MM-ddTHH:mm:ss[.fraction]Z} into {@code out} (30 bytes at least); returns the length. */
    private static int iso(byte[] out, int year, int month, int day, int hour, int minute, int second, int nanos) {
        digits(out, 0, year, 4);
        out[4] = '-';
        digits(out, 5, month, 2);
        out[7] = '-';
        digits(out, 8, day, 2);
        out[10] = 'T';
        digits(out, 11, hour, 2);
        out[13] = ':';
        digits(out, 14, minute, 2);
        out[16] = ':';
        digits(out, 17, second, 2);
        int end = 19;
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
        return end;
    }

    private static void digits(byte[] out, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            out[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }

    /**
     * A character value written from the bytes PostgreSQL sent: no String is decoded per value and encoded again
     * (that was a tenth of a list page's CPU), and escaped only when it needs it ({@link Utf8Text}).
     */
    private static void utf8OrNull(byte[] utf8, JsonGenerator json) throws IOException {
        if (utf8 == null) {
            json.writeNull();
        } else {
            Utf8Text.write(utf8, 0, utf8.length, json);
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
     * The buffered rows' UTF-8 bytes, grown as the generator flushes into them and kept as they are: no blocks to
     * join and no final copy (a list tool's page was allocated about three times over by a block builder).
     */
    private static final class RowBytes extends OutputStream {
        private byte[] bytes;
        private int length;

        RowBytes(int capacity) {
            bytes = new byte[capacity];
        }

        @Override
        public void write(int b) {
            room(1);
            bytes[length++] = (byte) b;
        }

        @Override
        public void write(byte[] source, int offset, int count) {
            room(count);
            System.arraycopy(source, offset, bytes, length, count);
            length += count;
        }

        private void room(int more) {
            if (length + more > bytes.length) {
                bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
            }
        }
    }
}
