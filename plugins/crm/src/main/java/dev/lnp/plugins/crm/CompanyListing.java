package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.http.PageRequest;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/** The companies list of the application: search words, by name or newest first, one row more than the page. */
final class CompanyListing {


    private final Handle handle;
    private final UUID workspaceId;

    CompanyListing(Handle handle, UUID workspaceId) {
        this.handle = handle;
        this.workspaceId = workspaceId;
    }

    /** @param byName alphabetical (the index {@code companies_by_name}, V11) rather than newest first */
    RowsPage page(List<String> words, boolean byName, PageRequest page) {
        String where = "workspace_id = :workspace_id"
                + (words.isEmpty() ? "" : " AND id IN (SELECT crm.company_search_candidates(:words))");
        Query query = handle.createQuery("SELECT * FROM crm.companies WHERE " + where + " ORDER BY "
                        + (byName ? "lower(name), id" : "created_at DESC, id DESC")
                        + " LIMIT " + (page.limit() + 1) + " OFFSET " + page.offset())
                .bind("workspace_id", workspaceId);
        if (!words.isEmpty()) query.bindArray("words", String.class, words);
        return RowsPage.of(query.map(CompanyRepository.TABLE).list(), page.limit());
    }
}
