package dev.lnp.database.batch;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * Inserts a batch of records with one statement: each column's values travel as one text array, which
 * PostgreSQL casts to the column's type and unnests into rows ({@code INSERT … SELECT * FROM unnest($1::uuid[], …)}).
 * A batch of a thousand rows is then one statement to plan and execute, and binding costs one array per column
 * instead of a named argument per value, which made the audit writers a noticeable share of a busy node's CPU.
 * A {@code bytea} column's values travel as bytes (the driver sends a {@code bytea[]} in binary): nothing is
 * turned into text on the way or parsed from it on arrival.
 *
 * @param <E> the record written as one row
 */
public final class ColumnsInsert<E> {

    /**
     * A column, its SQL type (the array's element type), and its value of a record (null for NULL): text, or for
     * a {@code bytea} column a {@code byte[]}.
     */
    public record Column<E>(String name, String type, Function<E, ?> value) {

        public static <E> Column<E> bytes(String name, Function<E, byte[]> value) {
            return new Column<>(name, "bytea", value);
        }

        boolean binary() {
            return type.equals("bytea");
        }
    }

    private final String sql;
    private final List<Column<E>> columns;

    public ColumnsInsert(String table, List<Column<E>> columns) {
        this.columns = List.copyOf(columns);
        this.sql = "INSERT INTO " + table + " ("
                + columns.stream().map(Column::name).collect(Collectors.joining(", "))
                + ") SELECT * FROM unnest("
                + columns.stream().map(c -> "?::" + c.type() + "[]").collect(Collectors.joining(", ")) + ")";
    }

    /** Writes the records, one row each, in one statement on a connection of the pool. */
    public void write(Jdbi jdbi, List<E> records) {
        jdbi.useHandle(handle -> {
            var connection = handle.getConnection();
            try (PreparedStatement insert = connection.prepareStatement(sql)) {
                for (int c = 0; c < columns.size(); c++) {
                    Column<E> column = columns.get(c);
                    Object[] values = column.binary() ? new byte[records.size()][] : new String[records.size()];
                    for (int r = 0; r < values.length; r++) {
                        values[r] = column.value().apply(records.get(r));
                    }
                    insert.setArray(c + 1, connection.createArrayOf(column.binary() ? "bytea" : "text", values));
                }
                insert.executeUpdate();
            } catch (SQLException e) {
                // As a Jdbi statement would have thrown it: BatchedWriter reads the SQLSTATE of the cause.
                throw new UnableToExecuteStatementException(e, null);
            }
        });
    }
}
