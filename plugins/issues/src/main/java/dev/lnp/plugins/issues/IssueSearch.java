package dev.lnp.plugins.issues;

import dev.lnp.api.pages.PageSearch;
import dev.lnp.api.pages.SearchHit;
import java.util.List;
import java.util.Locale;

/**
 * The application's search box over tasks and tickets: titles that contain what was typed, most recently changed
 * first, at most a few. The statement walks the kind's {@code updated} index backwards and stops at the limit, so
 * a common word costs a few rows; the title's trigram index is not reachable here, since row-level security keeps
 * a non-leakproof LIKE from being an index condition.
 */
final class IssueSearch {

    /** Where a hit of each kind opens: the task's page, the ticket's page in the support inbox. */
    private static final String TASK_PAGE = TaskPages.LIST + "/";
    private static final String TICKET_PAGE = TicketPages.INBOX + "/";

    private IssueSearch() {
    }

    static PageSearch tasks() {
        return source("Tasks", IssueKind.TASK, " AND deleted_at IS NULL", TASK_PAGE);
    }

    static PageSearch tickets() {
        return source("Tickets", IssueKind.TICKET, "", TICKET_PAGE);
    }

    /** @param live the condition that leaves out deleted rows, where the kind keeps them */
    private static PageSearch source(String heading, IssueKind kind, String live, String page) {
        return new PageSearch(heading, IssueScopes.READ, (call, text, limit) -> {
            String escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
            return call.tx().handle().createQuery("SELECT id, title, status FROM " + kind.table
                            + " WHERE workspace_id = :workspace_id" + live + " AND title ILIKE :pattern"
                            + " ORDER BY updated_at DESC, id DESC LIMIT " + limit)
                    .bind("workspace_id", call.workspaceId())
                    .bind("pattern", "%" + escaped + "%")
                    .map((rs, ctx) -> new SearchHit(rs.getString("title"), status(rs.getString("status")),
                            page + rs.getObject("id")))
                    .list();
        });
    }

    /** {@code in_progress} as people read it: "In progress". */
    private static String status(String key) {
        String spaced = key.replace('_', ' ');
        return spaced.substring(0, 1).toUpperCase(Locale.ROOT) + spaced.substring(1);
    }

    static List<PageSearch> all() {
        return List.of(tasks(), tickets());
    }
}
