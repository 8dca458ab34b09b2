package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.statement.SqlStatement;

/**
 * One column of a CRM table that is also a JSON field of the same name: how a validated JSON value is bound
 * into SQL and how the stored value is written back as JSON. Keeping both directions here is what makes the
 * REST body, the tool arguments and the returned object agree field by field.
 */
record Column(String name, Kind kind) {

    enum Kind { TEXT, UUID, NUMBER, DATE, TAGS, JSON }

    static Column text(String name) {
        return new Column(name, Kind.TEXT);
    }

    static Column uuid(String name) {
        return new Column(name, Kind.UUID);
    }

    static Column number(String name) {
        return new Column(name, Kind.NUMBER);
    }

    static Column date(String name) {
        return new Column(name, Kind.DATE);
    }

    static Column tags(String name) {
        return new Column(name, Kind.TAGS);
    }

    static Column json(String name) {
        return new Column(name, Kind.JSON);
    }

    /** The SQL value expression for this column's parameter; typed, because a bound NULL carries no type. */
    String parameter() {
        return switch (kind) {
            case TEXT -> ":" + name;
            case UUID -> "CAST(:" + name + " AS uuid)";
            case NUMBER -> "CAST(:" + name + " AS numeric)";
            case DATE -> "CAST(:" + name + " AS date)";
            case TAGS -> "CAST(:" + name + " AS text[])";
            case JSON -> "CAST(:" + name + " AS jsonb)";
        };
    }

    /** Binds a value that already passed the JSON Schema; JSON null (and "" for a UUID) stores SQL NULL. */
    void bind(SqlStatement<?> statement, JsonNode value) {
        boolean empty = value == null || value.isNull() || value.isMissingNode();
        switch (kind) {
            case TEXT -> statement.bindByType(name, empty ? null : value.asText(), String.class);
            case UUID -> statement.bindByType(name, empty || value.asText().isEmpty() ? null
                    : java.util.UUID.fromString(value.asText()), java.util.UUID.class);
            case NUMBER -> statement.bindByType(name, empty ? null : value.decimalValue(), BigDecimal.class);
            case DATE -> statement.bindByType(name, empty ? null : LocalDate.parse(value.asText()), LocalDate.class);
            case TAGS -> {
                List<String> tags = new ArrayList<>();
                if (!empty) {
                    value.forEach(tag -> tags.add(tag.asText()));
                }
                statement.bindArray(name, String.class, tags);
            }
            case JSON -> statement.bind(name, empty ? "{}" : value.toString());
        }
    }

    void read(ResultSet rs, ObjectNode out) throws SQLException {
        switch (kind) {
            case TEXT -> out.put(name, rs.getString(name));
            case UUID -> {
                UUID id = rs.getObject(name, UUID.class);
                out.put(name, id == null ? null : id.toString());
            }
            case NUMBER -> out.put(name, rs.getBigDecimal(name));
            case DATE -> {
                LocalDate date = rs.getObject(name, LocalDate.class);
                out.put(name, date == null ? null : date.toString());
            }
            case TAGS -> {
                ArrayNode tags = out.putArray(name);
                Array array = rs.getArray(name);
                if (array != null) {
                    for (Object tag : (Object[]) array.getArray()) {
                        tags.add((String) tag);
                    }
                }
            }
            case JSON -> {
                String json = rs.getString(name);
                out.set(name, json == null ? Json.object() : Json.parse(json));
            }
        }
    }
}
