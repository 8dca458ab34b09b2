package dev.lnp.api.sql;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jdbi.v3.core.statement.SqlStatement;

/**
 * One column that a JSON field maps to one-to-one, for plugins that map request fields to columns: how the
 * validated JSON value becomes a bound SQL value and how the stored value becomes a JSON-ready Java value.
 * Column names come from code, never from a request.
 *
 * <p>Collections are never SQL NULL: a {@link Type#TEXT_ARRAY} or {@link Type#JSON} field sent as JSON
 * {@code null} stores an empty array or an empty object (declare such columns {@code NOT NULL DEFAULT}). An
 * empty string for a {@link Type#UUID} stores NULL, for schemas that accept {@code ""} as "no reference"
 * (a {@code format: uuid} schema refuses it before it gets here).
 */
public record Column(String name, Type type) {

    /** A column's type; the Java value bound for it: String, UUID, LocalDate, OffsetDateTime, BigDecimal, Boolean,
     * a List of strings, a JsonNode (or its text). */
    public enum Type {
        TEXT, UUID, DATE, TIMESTAMP, NUMBER, BOOLEAN, TEXT_ARRAY, JSON
    }

    public static Column text(String name) {
        return new Column(name, Type.TEXT);
    }

    public static Column uuid(String name) {
        return new Column(name, Type.UUID);
    }

    public static Column date(String name) {
        return new Column(name, Type.DATE);
    }

    public static Column timestamp(String name) {
        return new Column(name, Type.TIMESTAMP);
    }

    public static Column number(String name) {
        return new Column(name, Type.NUMBER);
    }

    public static Column bool(String name) {
        return new Column(name, Type.BOOLEAN);
    }

    /** A {@code text[]} column for a JSON array of strings. */
    public static Column textArray(String name) {
        return new Column(name, Type.TEXT_ARRAY);
    }

    /** A {@code jsonb} column for a JSON object. */
    public static Column json(String name) {
        return new Column(name, Type.JSON);
    }

    /**
     * The value to bind for a field; the schema already checked its shape, and a value a format check let by
     * (an impossible date) is refused as a 400 naming the field.
     */
    public Object fromJson(JsonNode node) {
        return RowCodec.PLATFORM.fromJson(this, node);
    }

    /**
     * Binds the value under the column's name as the JDBC call Jdbi's own argument factory for the type makes,
     * handed to Jdbi ready: no argument-factory look-up per value.
     */
    public void bind(SqlStatement<?> statement, Object value) {
        statement.bind(name, RowCodec.PLATFORM.argument(this, value));
    }

    /** The stored value as the Java value {@link Type} names (numbers without trailing zeros). */
    public Object read(ResultSet rs) throws SQLException {
        return RowCodec.PLATFORM.read(this, rs);
    }

    /** The stored value of this column (found by its name) as the JSON node a response carries. */
    public JsonNode readJson(ResultSet rs) throws SQLException {
        return readJson(rs, rs.findColumn(name));
    }

    /** The stored value in column {@code index} as the JSON node a response carries; same JSON as {@link #read}. */
    public JsonNode readJson(ResultSet rs, int index) throws SQLException {
        return RowCodec.PLATFORM.readJson(this, rs, index);
    }
}
