package dev.lnp.api.pages;

import java.util.Objects;

/**
 * A column of a list: the row's field it shows, and whether the list can be sorted by it ({@code sortKey}, the
 * value the view's renderer receives as {@code ?sort=}; {@code -key} asks for descending).
 *
 * @param link the row's page, with {@code {field}} placeholders (values URL-encoded), or {@code null}; a link that is
 *     one placeholder alone ({@code "{path}"}) takes the field's value as the whole address, when it is a path of
 *     this platform ({@code /app/…}), e.g. a record another plugin holds
 */
public record Column(String label, String field, String link, String sortKey) {

    public Column {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(field, "field");
    }

    public static Column of(String label, String field) {
        return new Column(label, field, null, null);
    }

    public Column linkedTo(String link) {
        return new Column(label, field, link, sortKey);
    }

    public Column sortable(String sortKey) {
        return new Column(label, field, link, sortKey);
    }
}
