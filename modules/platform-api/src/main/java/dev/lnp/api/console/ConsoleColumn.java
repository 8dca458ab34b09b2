package dev.lnp.api.console;

import java.util.Objects;

/**
 * One column of a section's table (and one line of its detail view): a label and the row's JSON field it shows.
 * Strings are shown as text, booleans as yes/no, arrays joined by commas, missing and null values as a dash.
 *
 * @param label the column heading, e.g. {@code Name}
 * @param field the row field, e.g. {@code name}
 * @param linksToDetail whether the cell links to the row's detail view (needs {@link ConsoleSection.Builder#detail})
 */
public record ConsoleColumn(String label, String field, boolean linksToDetail) {

    public ConsoleColumn {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(field, "field");
    }

    public static ConsoleColumn of(String label, String field) {
        return new ConsoleColumn(label, field, false);
    }

    /** A column whose cells link to the row's detail view. */
    public static ConsoleColumn linked(String label, String field) {
        return new ConsoleColumn(label, field, true);
    }
}
