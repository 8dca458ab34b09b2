package dev.lnp.plugins.crm;

import java.util.List;
import org.jdbi.v3.core.statement.Query;

/**
 * A list filter on one column that matches any of its values: one value as {@code column = :parameter}, several as
 * {@code column = ANY(:parameter)}, none as no condition at all. Equality for one value is for the planner:
 * PostgreSQL before 17 reads no index in order under {@code = ANY} on a column after the first (the contacts page
 * by status), and a prepared statement's generic plan chose a slower index for it (the deals pipeline's page,
 * docs/performance.md, "The design decisions that got there").
 *
 * @param <T> the values' type, bound as such (one) or as an array of it (several)
 */
record OneOrAny<T>(String column, String parameter, Class<T> type, List<T> values) {

    OneOrAny {
        values = List.copyOf(values);
    }

    /** The condition, or null when the filter has no values. */
    String condition() {
        return switch (values.size()) {
            case 0 -> null;
            case 1 -> column + " = :" + parameter;
            default -> column + " = ANY(:" + parameter + ")";
        };
    }

    /** Adds the condition, if the filter has one. */
    void addTo(List<String> conditions) {
        String condition = condition();
        if (condition != null) {
            conditions.add(condition);
        }
    }

    /**
     * Binds the value or values, only when the statement names them: binding an array resolves its generic type
     * each time (JFR: a few per cent of an unfiltered page's samples went to binding an unused empty array).
     */
    void bind(Query statement) {
        if (values.size() == 1) {
            statement.bind(parameter, values.get(0));
        } else if (!values.isEmpty()) {
            statement.bindArray(parameter, type, values);
        }
    }
}
