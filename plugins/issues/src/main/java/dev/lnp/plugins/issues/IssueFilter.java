package dev.lnp.plugins.issues;

import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * The filters of the issues list, declared once in {@code schemas/issue-list.json} (the REST query parameters
 * are read from it, the list tool takes it as input) and read here once for both.
 *
 * @param kind one collection per list, tasks when none is named
 * @param projectId, status, search null when not filtered on
 */
record IssueFilter(IssueKind kind, UUID projectId, String status, String search) {

    /** @param value a filter's value by name: a query parameter or a tool argument, already schema-checked */
    static IssueFilter from(Function<String, Optional<String>> value) {
        return new IssueFilter(IssueKind.of(value.apply("kind").orElse(IssueKind.TASK.key)),
                value.apply("project_id").map(UUID::fromString).orElse(null),
                value.apply("status").orElse(null),
                value.apply("search").filter(s -> !s.isBlank()).orElse(null));
    }

    /** The tasks of one project. */
    static IssueFilter tasksOf(UUID projectId) {
        return new IssueFilter(IssueKind.TASK, projectId, null, null);
    }
}
