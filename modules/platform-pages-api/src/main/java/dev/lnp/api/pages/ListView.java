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
 * @param selection what can be done to several rows at once, or {@code null}: see {@link Selection}
 */
public record ListView(String title, List<Column> columns, List<Filter> filters, List<ObjectNode> rows,
                       boolean hasMore, List<Link> actions, String emptyText, Selection selection) implements PageView {

    /**
     * Rows picked by a checkbox each and changed together by one form, which works without JavaScript: each row's
     * checkbox posts its {@code id} as a value of {@code field}, and the form's fields (a {@link FormView}'s schema,
     * drawn under the table; its title is their legend) go with them to the action at {@code action}. The action's
     * form schema declares {@code field} as an array of strings with {@code "x-input": "checkboxes"}, so every
     * ticked row arrives.
     */
    public record Selection(String field, String action, FormView form) {
        public Selection {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(form, "form");
            if (!action.startsWith("/")) throw new IllegalArgumentException("a selection posts on the platform: " + action);
        }
    }

    public ListView(String title, List<Column> columns, List<Filter> filters, List<ObjectNode> rows, boolean hasMore,
            List<Link> actions, String emptyText) {
        this(title, columns, filters, rows, hasMore, actions, emptyText, null);
    }

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
        return new ListView(title, columns, List.of(filters), rows, hasMore, actions, emptyText, selection);
    }

    public ListView actions(Link... actions) {
        return new ListView(title, columns, filters, rows, hasMore, List.of(actions), emptyText, selection);
    }

    /** The same list with a checkbox per row and {@code form} under it, posted to {@code action}. */
    public ListView selectable(String field, String action, FormView form) {
        return new ListView(title, columns, filters, rows, hasMore, actions, emptyText, new Selection(field, action, form));
    }

    public ListView emptyText(String emptyText) {
        return new ListView(title, columns, filters, rows, hasMore, actions, emptyText, selection);
    }
}
