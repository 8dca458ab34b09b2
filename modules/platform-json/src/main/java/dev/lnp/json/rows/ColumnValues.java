package dev.lnp.json.rows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.argument.Argument;
import dev.lnp.api.sql.Column;

/**
 * What {@link Column} does with a value: parse a validated JSON value, bind it, read the stored value back as a
 * Java value or a JSON node.
 */
final class ColumnValues {

    private ColumnValues() {
    }

    /** The schema already checked the value's shape; parsing can still refuse what a format check let by. */
    static Object fromJson(Column column, JsonNode node) {
        Column.Type type = column.type();
        String name = column.name();
        boolean absent = node == null || node.isNull() || node.isMissingNode();
        if (type == Column.Type.TEXT_ARRAY) {
            List<String> values = new ArrayList<>();
            if (!absent) {
                node.forEach(value -> values.add(value.asText()));
            }
            return values;
        }
        if (type == Column.Type.JSON) {
            return absent ? Json.object() : node;
        }
        if (absent || (type == Column.Type.UUID && node.asText().isEmpty())) {
            return null;
        }
        try {
            return switch (type) {
                case TEXT -> node.asText();
                case UUID -> java.util.UUID.fromString(node.asText());
                case DATE -> LocalDate.parse(node.asText());
                case TIMESTAMP -> OffsetDateTime.parse(node.asText());
                case NUMBER -> node.decimalValue();
                case BOOLEAN -> node.booleanValue();
                case TEXT_ARRAY, JSON -> throw new IllegalStateException("handled above");
            };
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw ApiProblem.invalidField("/" + name, "format", name + " is not a valid " + type.name().toLowerCase());
        }
    }

    /**
     * The value as the JDBC call Jdbi's own argument factory for the column's type makes ({@code setString},
     * {@code setObject} with the same SQL type, a {@code varchar} array, …), handed to Jdbi as an {@link Argument}:
     * Jdbi applies it as it is instead of looking up its argument factories for every value (a contact's insert
     * binds twenty, and the look-ups were 8 % of a POST's CPU).
     */
    static Argument argument(Column column, Object value) {
        Column.Type type = column.type();
        if (type == Column.Type.TEXT_ARRAY) {
            Object[] elements = (value == null ? List.of() : (List<?>) value).toArray();
            return (position, statement, context) -> statement.setArray(position,
                    statement.getConnection().createArrayOf("varchar", elements));
        }
        if (type == Column.Type.JSON) {
            // Types.OTHER lets PostgreSQL take the text as jsonb without a cast in the statement.
            String json = value == null ? "{}" : value.toString();
            return (position, statement, context) -> statement.setObject(position, json, Types.OTHER);
        }
        if (value == null) {
            // Untyped, so PostgreSQL takes the column's type (a typed null of UUID would arrive as varchar).
            return (position, statement, context) -> statement.setNull(position, Types.OTHER);
        }
        return switch (type) {
            case TEXT -> {
                String text = (String) value;
                yield (position, statement, context) -> statement.setString(position, text);
            }
            case UUID -> {
                java.util.UUID uuid = (java.util.UUID) value;
                yield (position, statement, context) -> statement.setObject(position, uuid);
            }
            case DATE -> {
                LocalDate date = (LocalDate) value;
                yield (position, statement, context) -> statement.setObject(position, date, Types.DATE);
            }
            case TIMESTAMP -> {
                OffsetDateTime time = (OffsetDateTime) value;
                yield (position, statement, context) ->
                        statement.setObject(position, time, Types.TIMESTAMP_WITH_TIMEZONE);
            }
            case NUMBER -> {
                BigDecimal number = (BigDecimal) value;
                yield (position, statement, context) -> statement.setBigDecimal(position, number);
            }
            case BOOLEAN -> {
                boolean flag = (Boolean) value;
                yield (position, statement, context) -> statement.setBoolean(position, flag);
            }
            case TEXT_ARRAY, JSON -> throw new IllegalStateException("handled above");
        };
    }

    static Object read(Column column, ResultSet rs) throws SQLException {
        String name = column.name();
        return switch (column.type()) {
            case TEXT -> rs.getString(name);
            case UUID -> rs.getObject(name, java.util.UUID.class);
            case DATE -> rs.getObject(name, LocalDate.class);
            case TIMESTAMP -> rs.getObject(name, OffsetDateTime.class);
            case NUMBER -> plain(rs.getBigDecimal(name));
            case BOOLEAN -> {
                boolean value = rs.getBoolean(name);
                yield rs.wasNull() ? null : value;
            }
            case TEXT_ARRAY -> {
                Array array = rs.getArray(name);
                yield array == null ? List.of() : List.of((Object[]) array.getArray());
            }
            case JSON -> {
                String json = rs.getString(name);
                yield json == null ? Json.object() : Json.parse(json);
            }
        };
    }

    /**
     * The stored value as the JSON node a response carries, read straight from column {@code index}: list pages
     * read thousands of values per request, and building a Java value first to convert it into a node cost a
     * fifth of a contacts page's server time (docs/performance.md). Same JSON as {@link #read} serialised.
     */
    static JsonNode readJson(Column column, ResultSet rs, int index) throws SQLException {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        return switch (column.type()) {
            case TEXT, UUID -> textNode(rs.getString(index));
            case DATE -> {
                LocalDate date = rs.getObject(index, LocalDate.class);
                yield date == null ? nodes.nullNode() : nodes.textNode(date.toString());
            }
            case TIMESTAMP -> {
                String time = BinaryTimestamptz.isoUtc(rs, index);
                yield time == null ? nodes.nullNode() : nodes.textNode(time);
            }
            case NUMBER -> {
                BigDecimal value = plain(rs.getBigDecimal(index));
                yield value == null ? nodes.nullNode() : DecimalNode.valueOf(value);
            }
            case BOOLEAN -> {
                boolean value = rs.getBoolean(index);
                yield rs.wasNull() ? nodes.nullNode() : nodes.booleanNode(value);
            }
            case TEXT_ARRAY -> {
                ArrayNode values = nodes.arrayNode();
                Array array = rs.getArray(index);
                if (array != null) {
                    for (Object value : (Object[]) array.getArray()) {
                        values.add(textNode((String) value));
                    }
                }
                yield values;
            }
            case JSON -> {
                String json = rs.getString(index);
                yield json == null ? Json.object() : Json.parse(json);
            }
        };
    }

    private static JsonNode textNode(String value) {
        return value == null ? JsonNodeFactory.instance.nullNode() : JsonNodeFactory.instance.textNode(value);
    }

    /** 50 rather than 50.00 or 5E+1 in responses. */
    private static BigDecimal plain(BigDecimal value) {
        if (value == null) {
            return null;
        }
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }
}
