package dev.lnp.plugins.crm;

import static dev.lnp.api.sql.Column.json;
import static dev.lnp.api.sql.Column.number;
import static dev.lnp.api.sql.Column.text;
import static dev.lnp.api.sql.Column.textArray;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.sql.JsonRows;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/** Companies of one workspace. */
final class CompanyRepository {

    static final EntityTable TABLE = new EntityTable("crm.companies", List.of(
            text("name"), text("domain"), text("website"), text("industry"), number("employees"), text("phone"),
            text("address_line1"), text("address_line2"), text("city"), text("state"), text("postal_code"),
            text("country"), text("notes"), textArray("tags"), json("custom_fields"), text("external_id")));

    private final Handle handle;
    private final UUID workspaceId;

    CompanyRepository(Handle handle, UUID workspaceId) {
        this.handle = handle;
        this.workspaceId = workspaceId;
    }

    ObjectNode insert(JsonNode fields) {
        return writing(() -> TABLE.insert(handle, workspaceId, fields).map(TABLE).one());
    }

    Optional<ObjectNode> find(UUID id) {
        return handle.createQuery("SELECT * FROM crm.companies WHERE workspace_id = :workspace_id AND id = :id")
                .bind("workspace_id", workspaceId).bind("id", id).map(TABLE).findOne();
    }

    /** The company, locked until the transaction ends, so the activity compares it with its next state alone. */
    Optional<ObjectNode> findForUpdate(UUID id) {
        return handle.createQuery("SELECT * FROM crm.companies WHERE workspace_id = :workspace_id AND id = :id FOR UPDATE")
                .bind("workspace_id", workspaceId).bind("id", id).map(TABLE).findOne();
    }

    /** The changed company, or empty when the workspace has none with this id. */
    Optional<ObjectNode> update(UUID id, JsonNode fields) {
        return writing(() -> TABLE.update(handle, workspaceId, id, fields).map(TABLE).findOne());
    }

    /**
     * Deletes the company and returns its last state. Its contacts and deals keep existing; the foreign keys
     * clear their company_id (V7__company_references).
     */
    Optional<ObjectNode> delete(UUID id) {
        return handle.createQuery("DELETE FROM crm.companies WHERE workspace_id = :workspace_id AND id = :id RETURNING *")
                .bind("workspace_id", workspaceId).bind("id", id).map(TABLE).findOne();
    }

    /**
     * One page and its total in one statement (see {@link JsonRows#withTotal}), rows written straight from the
     * result set. As for contacts, the page's ids are chosen off {@code companies_recent} first and only its rows
     * are read; a search's candidates come from the trigram index through {@code crm.company_search_candidates}
     * (V6__compatible_companies). Totals are counted: a workspace has far fewer companies than contacts.
     */
    JsonRows list(CompanyQuery query) {
        String where = "workspace_id = :workspace_id"
                + (query.words().isEmpty() ? "" : " AND id IN (SELECT crm.company_search_candidates(:words))");
        String count = "SELECT count(*) FROM crm.companies WHERE " + where;
        Query page = bind(handle.createQuery("""
                        WITH page AS (
                            SELECT id, created_at FROM crm.companies WHERE %s
                             ORDER BY created_at DESC, id DESC %s)
                        SELECT c.*, (%s) AS %s FROM page JOIN crm.companies c ON c.id = page.id AND c.workspace_id = :workspace_id
                         ORDER BY page.created_at DESC, page.id DESC
                        """.formatted(where, query.page().limitClause(), count, JsonRows.TOTAL_COLUMN)), query);
        return JsonRows.withTotal(page, TABLE::writer, query.page(),
                () -> bind(handle.createQuery(count), query).mapTo(Long.class).one());
    }

    private Query bind(Query statement, CompanyQuery query) {
        statement.bind("workspace_id", workspaceId);
        if (!query.words().isEmpty()) {
            statement.bindArray("words", String.class, query.words());
        }
        return statement;
    }

    private static <T> T writing(Supplier<T> write) {
        try {
            return write.get();
        } catch (UnableToExecuteStatementException e) {
            if (SqlErrors.isUniqueViolation(e, "companies_domain_unique")) {
                String detail = "A company with this domain already exists in this workspace.";
                throw new ApiProblem(409, "duplicate_domain", "Conflict", detail,
                        List.of(new FieldError("/domain", "unique", detail)), Map.of());
            }
            throw e;
        }
    }
}
