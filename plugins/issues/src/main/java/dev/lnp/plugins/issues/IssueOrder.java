package dev.lnp.plugins.issues;

import java.util.Arrays;
import java.util.List;

/**
 * The orders of the issues list ({@code order_by}); a leading {@code -} reverses one. Every order ends on the id,
 * so pages never repeat or skip an item that ties. {@code sort} and {@code order} are refused with a 400 as unknown
 * parameters: the contract's list of the issues route excludes them, so a client relying on them learns it at once.
 */
enum IssueOrder {
    CREATED_AT("created_at", "i.created_at, i.id"),
    CREATED_AT_DESC("-created_at", "i.created_at DESC, i.id DESC"),
    UPDATED_AT("updated_at", "i.updated_at, i.id"),
    UPDATED_AT_DESC("-updated_at", "i.updated_at DESC, i.id DESC"),
    /** Soonest first; items without a due date come last either way, since they are due at no time. */
    DUE_AT("due_at", "i.due_at ASC NULLS LAST, i.id"),
    DUE_AT_DESC("-due_at", "i.due_at DESC NULLS LAST, i.id DESC"),
    /** Most pressing first (urgent, high, medium, low, none), as a person means "by priority"; oldest first within one. */
    PRIORITY("priority", IssueOrder.PRIORITY_RANK + ", i.created_at, i.id"),
    PRIORITY_DESC("-priority", IssueOrder.PRIORITY_RANK + " DESC, i.created_at, i.id"),
    /** Ignoring case, as a person reads a list ("alpha" before "Bravo" whatever the database's collation). */
    TITLE("title", "lower(i.title), i.id"),
    TITLE_DESC("-title", "lower(i.title) DESC, i.id DESC");

    private static final String PRIORITY_RANK = "CASE i.priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1"
            + " WHEN 'medium' THEN 2 WHEN 'low' THEN 3 ELSE 4 END";

    /** The list's order when none is asked for: the order it always had. */
    static final IssueOrder DEFAULT = CREATED_AT;

    final String key;
    /** The ORDER BY clause over the list's alias {@code i}; built only from these constants, never from input. */
    final String sql;

    IssueOrder(String key, String sql) {
        this.key = key;
        this.sql = sql;
    }

    static List<String> keys() {
        return Arrays.stream(values()).map(o -> o.key).toList();
    }

    /** @param key a value the list schema's enum already accepted */
    static IssueOrder of(String key) {
        return Arrays.stream(values()).filter(o -> o.key.equals(key)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("order_by " + key));
    }
}
