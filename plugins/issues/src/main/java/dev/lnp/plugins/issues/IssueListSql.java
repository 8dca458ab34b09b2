package dev.lnp.plugins.issues;

import dev.lnp.api.http.PageRequest;
import dev.lnp.api.sql.JsonRows;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/**
 * The SQL of the issues list: only the clauses a filter needs, so the planner sees plain predicates and can use
 * the filter indexes (V2 migration) and the trigram indexes. Values are always bound; the table, the columns
 * and the order come from constants.
 */
final class IssueListSql {

    private IssueListSql() {
    }

    /** With {@code withTotal}, the page's total too (an uncorrelated count, see {@link JsonRows#withTotal}). */
    static Query page(Handle handle, UUID workspaceId, IssueFilter filter, PageRequest page, String columns,
            boolean withTotal) {
        return page(handle, workspaceId, filter, page.limitClause(), columns, withTotal);
    }

    /** The page and the row after it, for a list that shows whether another page follows without counting. */
    static Query pageAndOneMore(Handle handle, UUID workspaceId, IssueFilter filter, PageRequest page,
            String columns) {
        return page(handle, workspaceId, filter, "LIMIT " + (page.limit() + 1) + " OFFSET " + page.offset(), columns,
                false);
    }

    private static Query page(Handle handle, UUID workspaceId, IssueFilter filter, String limitClause,
            String columns, boolean withTotal) {
        IssueKind kind = filter.kind();
        String total = withTotal ? ", (" + count(filter) + ") AS " + JsonRows.TOTAL_COLUMN : "";
        Query query = handle.createQuery("SELECT " + columns + ", " + labelsColumn(kind) + total + " FROM "
                + kind.table + " i" + where(filter) + " ORDER BY " + filter.order().sql + " " + limitClause);
        return bind(query, workspaceId, filter);
    }

    static Query count(Handle handle, UUID workspaceId, IssueFilter filter) {
        return bind(handle.createQuery(count(filter)), workspaceId, filter);
    }

    private static String count(IssueFilter filter) {
        return "SELECT count(*) FROM " + filter.kind().table + " i" + where(filter);
    }

    /**
     * An item's labels as a JSON array of {@code {id, name, color}} in name order ({@code json}, not {@code jsonb}:
     * it keeps the keys in that order), null when it has none: what the single-item read gives, read through the
     * link table's primary key.
     */
    private static String labelsColumn(IssueKind kind) {
        return "(SELECT json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color) ORDER BY lower(l.name))"
                + " FROM " + kind.labelTable + " x JOIN issues.labels l ON l.id = x.label_id"
                + " WHERE x.workspace_id = i.workspace_id AND x." + kind.refColumn + " = i.id) AS labels";
    }

    /** One value is an equality, several an {@code = ANY}: the plain form for the common single value. */
    private static String oneOrAny(String column, String parameter, List<?> values) {
        return values.size() == 1 ? column + " = :" + parameter : column + " = ANY(:" + parameter + ")";
    }

    private static String where(IssueFilter filter) {
        IssueKind kind = filter.kind();
        List<String> clauses = new ArrayList<>(List.of("i.workspace_id = :workspace_id", kind.live("i")));
        if (filter.projectId() != null) {
            clauses.add("i.project_id = :project");
        }
        if (!filter.statuses().isEmpty()) {
            clauses.add(oneOrAny("i.status", "status", filter.statuses()));
        }
        if (filter.cycleId() != null) {
            clauses.add("i.cycle_id = :cycle");
        }
        if (!filter.assignees().isEmpty()) {
            clauses.add(oneOrAny("i.assignee_id", "assignee", filter.assignees()));
        }
        if (filter.unassigned() != null) {
            clauses.add(filter.unassigned() ? "i.assignee_id IS NULL" : "i.assignee_id IS NOT NULL");
        }
        if (!filter.priorities().isEmpty()) {
            clauses.add(oneOrAny("i.priority", "priority", filter.priorities()));
        }
        if (filter.parentId() != null) {
            clauses.add("i.parent_id = :parent");
        }
        if (!filter.labels().isEmpty()) {
            clauses.add("EXISTS (SELECT 1 FROM " + kind.labelTable + " x WHERE x.workspace_id = i.workspace_id AND x."
                    + kind.refColumn + " = i.id AND x.label_id = ANY(:labels))");
        }
        if (filter.search() != null) {
            clauses.add("(i.title ILIKE :pattern OR i.description ILIKE :pattern)");
        }
        return " WHERE " + String.join(" AND ", clauses);
    }

    private static Query bind(Query query, UUID workspaceId, IssueFilter filter) {
        query.bind("workspace_id", workspaceId);
        if (filter.projectId() != null) {
            query.bind("project", filter.projectId());
        }
        bindOneOrAny(query, "status", String.class, filter.statuses());
        if (filter.cycleId() != null) {
            query.bind("cycle", filter.cycleId());
        }
        bindOneOrAny(query, "assignee", UUID.class, filter.assignees());
        bindOneOrAny(query, "priority", String.class, filter.priorities());
        if (filter.parentId() != null) {
            query.bind("parent", filter.parentId());
        }
        if (!filter.labels().isEmpty()) {
            query.bindArray("labels", UUID.class, filter.labels());
        }
        if (filter.search() != null) {
            String escaped = filter.search().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
            query.bind("pattern", "%" + escaped + "%");
        }
        return query;
    }

    private static <T> void bindOneOrAny(Query query, String parameter, Class<T> type, List<T> values) {
        if (values.size() == 1) {
            query.bindByType(parameter, values.get(0), type);
        } else if (!values.isEmpty()) {
            query.bindArray(parameter, type, values);
        }
    }
}
