package dev.lnp.json.rows;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.SerializedString;
import dev.lnp.api.Json;
import dev.lnp.api.sql.Column;
import dev.lnp.api.sql.JsonRows.FieldWriter;
import dev.lnp.api.sql.JsonRows.RowWriterFactory;
import java.io.IOException;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;

/**
 * One column of the current row written as a JSON field, by its type: what a list page's {@link RowWriterFactory}
 * builds its row writers from. Everything per result set (the column's position, its name as a serialized string, a
 * value buffer) is made when the writer is made, so writing a value allocates nothing of its own. Values are decoded
 * from PostgreSQL's binary forms where the driver hands them over ({@link BinaryTimestamptz}, {@link BinaryUuid},
 * {@link BinaryTextArray}); text is written from the bytes the server sent ({@link Utf8Text}).
 */
final class ColumnFieldWriters {

    private static final JsonFactory FACTORY = Json.mapper().getFactory();

    private ColumnFieldWriters() {
    }

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
                if (raw == null || !BinaryTextArray.write(raw, json)) {
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
            BinaryTimestamptz.write(row, index, buffer, json);
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

    /** A {@code uuid}: from its 16 binary bytes when the driver received them, else as the driver's text. */
    private static void uuidValue(ResultSet rs, int index, byte[] buffer, JsonGenerator json)
            throws SQLException, IOException {
        byte[] raw = rs.getBytes(index);
        if (raw == null) {
            json.writeNull();
        } else if (!BinaryUuid.write(raw, buffer, json)) {
            stringOrNull(rs.getString(index), json);
        }
    }

    private static void numberValue(BigDecimal value, JsonGenerator json) throws IOException {
        if (value == null) {
            json.writeNull();
        } else {
            BigDecimal stripped = value.stripTrailingZeros();
            json.writeNumber(stripped.scale() < 0 ? stripped.setScale(0) : stripped);
        }
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
}
