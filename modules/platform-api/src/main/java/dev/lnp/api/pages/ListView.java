package dev.lnp.api.pages;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;

/**
 * A page of rows: its columns, the filters and sort it offers, the rows of the page asked for
 * ({@link PageCall#page()}) and whether more follow. The web layer writes the filter form, the sortable headings,
 * the table and the pagination links, each keeping the others' query parameters.
 *
 * @param actions links above the list, e.g. {@code Link.to("New item", "/app/notes/items/new")}
 * @param emptyText what an empty list says
 */
public record ListView(String title, List<Column> columns, List<Filter> filters, List<ObjectNode> rows,
                       boolean hasMore, List<Link> actions, String emptyText) implements PageView {

    public ListView {
        Objects.requireNonNull(title, "title");
        columns = List.copyOf(columns);
        if (columns.isEmpty()) throw new IllegalArgumentException("a list needs a column");
        filters = List.copyOf(filters);
        rows = List.copyOf(rows);
        actions = List.copyOf(actions);
        if (emptyText == null) emptyText = "Nothing here yet.";
    }

    public static ListView of(String title, List<Column> columns, List<ObjectNode> rows, boolean hasMore) {
        return new ListView(title, columns, List.of(), rows, hasMore, List.of(), null);
    }

    public ListView filters(Filter... filters) {
        return new ListView(title, columns, List.of(filters), rows, hasMore, actions, emptyText);
    }

    public ListView actions(Link... actions) {
        return new ListView(title, columns, filters, rows, hasMore, List.of(actions), emptyText);
    }

    public ListView emptyText(String emptyText) {
        return new ListView(title, columns, filters, rows, hasMore, actions, emptyText);
    }
}
