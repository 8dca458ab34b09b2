package dev.lnp.plugins.issues;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * The filters and order of the issues list, declared once in {@code schemas/issue-list.json} (the REST query
 * parameters are read from it, the list tool takes it as input) and read here once for both. Several values of
 * one repeatable filter match any of them; different filters must all match.
 *
 * @param kind one collection per list, tasks when none is named
 * @param projectId, cycleId, parentId, search null when not filtered on
 * @param statuses, assignees, labels, priorities empty when not filtered on
 * @param unassigned true: only items assigned to nobody, false: only assigned ones, null: either
 */
record IssueFilter(IssueKind kind, UUID projectId, List<String> statuses, String search, UUID cycleId,
        List<UUID> assignees, List<UUID> labels, UUID parentId, IssueOrder order, List<String> priorities,
        Boolean unassigned) {

    IssueFilter {
        statuses = List.copyOf(statuses);
        assignees = List.copyOf(assignees);
        labels = List.copyOf(labels);
        priorities = List.copyOf(priorities);
    }

    /** The filters the lists had before priority and assignment: either is then not filtered on. */
    IssueFilter(IssueKind kind, UUID projectId, List<String> statuses, String search, UUID cycleId,
            List<UUID> assignees, List<UUID> labels, UUID parentId, IssueOrder order) {
        this(kind, projectId, statuses, search, cycleId, assignees, labels, parentId, order, List.of(), null);
    }

    /**
     * @param value a single filter's value by name: a query parameter or a tool argument, already schema-checked
     * @param values a repeatable filter's values by name, empty when absent
     */
    static IssueFilter from(Function<String, Optional<String>> value, Function<String, List<String>> values) {
        return new IssueFilter(IssueKind.of(value.apply("kind").orElse(IssueKind.TASK.key)),
                uuid(value, "project_id"),
                bounded(values, "status", 20),
                value.apply("search").filter(s -> !s.isBlank()).orElse(null),
                uuid(value, "cycle_id"),
                bounded(values, "assignee", 50).stream().map(UUID::fromString).toList(),
                bounded(values, "label", 50).stream().map(UUID::fromString).toList(),
                uuid(value, "parent_id"),
                value.apply("order_by").map(IssueOrder::of).orElse(IssueOrder.DEFAULT),
                bounded(values, "priority", IssueKind.PRIORITIES.size()),
                value.apply("unassigned").map(Boolean::parseBoolean).orElse(null));
    }

    /** The same filters narrowed to the tasks of one project (the project's own list route). */
    IssueFilter tasksOf(UUID project) {
        return new IssueFilter(IssueKind.TASK, project, statuses, search, cycleId, assignees, labels, parentId, order,
                priorities, unassigned);
    }

    /**
     * The list schema's {@code maxItems}, for query parameters too: the query validator checks each value, not how
     * many there are (the tool's arguments are held to the schema before they get here).
     */
    private static List<String> bounded(Function<String, List<String>> values, String name, int max) {
        List<String> given = values.apply(name);
        if (given.size() > max) {
            String message = name + " may be given at most " + max + " times";
            throw new ApiProblem(400, "invalid_query", "Bad Request", message,
                    List.of(new FieldError("?" + name, "max_items", message)), java.util.Map.of());
        }
        return given;
    }

    private static UUID uuid(Function<String, Optional<String>> value, String name) {
        return value.apply(name).map(UUID::fromString).orElse(null);
    }
}
