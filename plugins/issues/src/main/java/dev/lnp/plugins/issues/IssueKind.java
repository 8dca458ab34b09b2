package dev.lnp.plugins.issues;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The two collections behind {@code /api/v1/issues}. Each kind has its own table, status values and events;
 * the table names here are the only ones SQL is ever built with.
 */
enum IssueKind {
    TASK("task", "issues.tasks", "issues.task_labels", "task_id",
            List.of("backlog", "todo", "in_progress", "in_review", "done", "cancelled"), "backlog",
            List.of("done", "cancelled")),
    TICKET("ticket", "issues.tickets", "issues.ticket_labels", "ticket_id",
            List.of("new", "open", "pending", "on_hold", "solved", "closed"), "new", List.of("solved", "closed"));

    static final List<String> PRIORITIES = List.of("none", "low", "medium", "high", "urgent");

    final String key;
    final String table;
    final String labelTable;
    /** The column that names an item of this kind in the label and comment tables. */
    final String refColumn;
    final List<String> statuses;
    final String defaultStatus;
    /** The statuses of finished work; every other status is open (what closing a cycle carries over). */
    final List<String> closedStatuses;

    IssueKind(String key, String table, String labelTable, String refColumn, List<String> statuses,
            String defaultStatus, List<String> closedStatuses) {
        this.key = key;
        this.table = table;
        this.labelTable = labelTable;
        this.refColumn = refColumn;
        this.statuses = statuses;
        this.defaultStatus = defaultStatus;
        this.closedStatuses = closedStatuses;
    }

    static IssueKind of(String key) {
        return find(key).orElseThrow(() -> new IllegalArgumentException("kind " + key));
    }

    static Optional<IssueKind> find(String key) {
        return Arrays.stream(values()).filter(k -> k.key.equals(key)).findFirst();
    }

    boolean allows(String status) {
        return statuses.contains(status);
    }

    /** Only tasks are soft-deleted; tickets have no deleted_at. */
    String live(String alias) {
        return this == TASK ? alias + ".deleted_at IS NULL" : "TRUE";
    }
}
