package dev.lnp.plugins.crm;

import static dev.lnp.api.sql.Column.json;
import static dev.lnp.api.sql.Column.textArray;
import static dev.lnp.api.sql.Column.text;
import static dev.lnp.api.sql.Column.uuid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.events.StatementEvent;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.sql.JsonRows;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * Contacts of one workspace, and the per-status counters that give list totals without counting rows. Every
 * statement that adds, removes or re-statuses a contact adjusts the counters in the same transaction.
 */
final class ContactRepository {

    static final EntityTable TABLE = new EntityTable("crm.contacts", List.of(
            text("email"), text("first_name"), text("last_name"), text("phone"), text("job_title"),
            uuid("company_id"), text("company_name"), text("contact_type"), text("status"), text("lead_source"),
            text("industry"), text("notes"), textArray("tags"), json("custom_fields"), text("external_id"),
            text("country"), text("state"), text("city"), text("social_professional")));

    private final Handle handle;
    private final UUID workspaceId;

    ContactRepository(Handle handle, UUID workspaceId) {
        this.handle = handle;
        this.workspaceId = workspaceId;
    }

    /**
     * The contact, its status counter, its activity entry and its {@code created} event in one statement (three round
     * trips fewer per create than four statements). A refused insert (a duplicate email) or an event over the size
     * limit leaves none of them.
     */
    ObjectNode insert(JsonNode fields, StatementEvent created, Actor actor) {
        return writing(() -> ActivityRepository.bindActor(TABLE.insert(handle, workspaceId, fields, created, """
                INSERT INTO crm.contact_counts (workspace_id, status, stripe, n)
                SELECT workspace_id, status, lnp_core.counter_stripe(), 1 FROM inserted
                ON CONFLICT (workspace_id, status, stripe) DO UPDATE SET n = contact_counts.n + EXCLUDED.n""",
                ActivityRepository.CONTACT_CREATED_STEP), actor)
                .map(created.checked(TABLE)).one());
    }

    Optional<ObjectNode> find(UUID id) {
        return handle.createQuery("SELECT * FROM crm.contacts WHERE workspace_id = :workspace_id AND id = :id")
                .bind("workspace_id", workspaceId).bind("id", id).map(TABLE).findOne();
    }

    /** The contact before and after the change; its row is locked first, so the two are one change apart. */
    Optional<Change> update(UUID id, JsonNode fields) {
        Optional<ObjectNode> before = handle.createQuery("""
                        SELECT * FROM crm.contacts WHERE workspace_id = :workspace_id AND id = :id FOR UPDATE
                        """)
                .bind("workspace_id", workspaceId).bind("id", id).map(TABLE).findOne();
        if (before.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode contact = writing(() -> TABLE.update(handle, workspaceId, id, fields).map(TABLE).one());
        String statusBefore = before.get().get("status").asText();
        String after = contact.get("status").asText();
        if (!after.equals(statusBefore)) {
            count(statusBefore, -1);
            count(after, 1);
        }
        return Optional.of(new Change(before.get(), contact));
    }

    /** Deletes the contact and returns its last state. Deals keep existing; their contact_id is cleared. */
    Optional<ObjectNode> delete(UUID id) {
        Optional<ObjectNode> contact = handle.createQuery("""
                        DELETE FROM crm.contacts WHERE workspace_id = :workspace_id AND id = :id RETURNING *
                        """)
                .bind("workspace_id", workspaceId).bind("id", id).map(TABLE).findOne();
        contact.ifPresent(c -> count(c.get("status").asText(), -1));
        return contact;
    }

    /**
     * One page and its total in one statement: the page query selects the total too (see
     * {@link JsonRows#withTotal}); the rows are written straight from the result set into the response, no node
     * or list per row. Only a page with no row counts again, on its own.
     */
    JsonRows list(ContactQuery query) {
        Query page = bindFilters(handle.createQuery(pageSql(query)), query);
        return JsonRows.withTotal(page, TABLE::writer, query.page(),
                () -> bindFilters(handle.createQuery(totalSql(query)), query).mapTo(Long.class).one());
    }

    /**
     * The page's ids come off the ordering index alone (index-only for unfiltered and status lists); only the
     * rows of the page are then read, so a deep OFFSET skips index entries rather than table rows. The total is
     * an uncorrelated subquery, computed once for the statement.
     */
    static String pageSql(ContactQuery query) {
        return """
                WITH page AS (
                    SELECT id, created_at FROM crm.contacts
                     WHERE %s
                     ORDER BY created_at DESC, id DESC
                     %s)
                SELECT c.*, (%s) AS %s FROM page JOIN crm.contacts c ON c.id = page.id AND c.workspace_id = :workspace_id
                 ORDER BY page.created_at DESC, page.id DESC
                """.formatted(where(query), query.page().limitClause(), totalSql(query), JsonRows.TOTAL_COLUMN);
    }

    /**
     * Without search words the total is a sum of counter rows (at most 16 stripes of four statuses). A search total is counted, but
     * through the trigram index, so only candidate rows are visited.
     */
    static String totalSql(ContactQuery query) {
        if (query.words().isEmpty()) {
            return "SELECT coalesce(sum(n), 0) FROM crm.contact_counts WHERE workspace_id = :workspace_id"
                    + (query.statuses().isEmpty() ? "" : " AND " + statuses(query).condition());
        }
        return "SELECT count(*) FROM crm.contacts WHERE " + where(query);
    }

    private static String where(ContactQuery query) {
        List<String> conditions = new ArrayList<>(List.of("workspace_id = :workspace_id"));
        // One status as equality: only then does (workspace_id, status, created_at, id) deliver the page in order.
        statuses(query).addTo(conditions);
        if (!query.words().isEmpty()) {
            // The trigram index answers this only inside the candidates function (see V2__search_candidates).
            conditions.add("id IN (SELECT crm.contact_search_candidates(:words))");
        }
        return String.join(" AND ", conditions);
    }

    private Query bindFilters(Query statement, ContactQuery query) {
        return bindFilters(statement, workspaceId, query);
    }

    /** Binds what {@link #pageSql} and {@link #totalSql} name for {@code query} in workspace {@code workspaceId}. */
    static Query bindFilters(Query statement, UUID workspaceId, ContactQuery query) {
        statement.bind("workspace_id", workspaceId);
        statuses(query).bind(statement);
        if (!query.words().isEmpty()) {
            statement.bindArray("words", String.class, query.words());
        }
        return statement;
    }

    private static OneOrAny<String> statuses(ContactQuery query) {
        return new OneOrAny<>("status", "statuses", String.class, query.statuses());
    }

    /** Adds {@code delta} to the session's stripe of the status counter (see V3__striped_contact_counts). */
    private void count(String status, int delta) {
        handle.createUpdate("""
                        INSERT INTO crm.contact_counts (workspace_id, status, stripe, n)
                        VALUES (:workspace_id, :status, lnp_core.counter_stripe(), :delta)
                        ON CONFLICT (workspace_id, status, stripe) DO UPDATE SET n = contact_counts.n + EXCLUDED.n
                        """)
                .bind("workspace_id", workspaceId).bind("status", status).bind("delta", delta).execute();
    }

    /**
     * A duplicate email is 409. A company_id that names no company of the workspace is refused by the composite
     * foreign key {@code contacts_company} (V7__company_references), race-free, and answered as an invalid field.
     */
    private static ObjectNode writing(java.util.function.Supplier<ObjectNode> write) {
        try {
            return write.get();
        } catch (UnableToExecuteStatementException e) {
            if (SqlErrors.isUniqueViolation(e, "contacts_email_unique")) {
                String detail = "A contact with this email address already exists in this workspace.";
                throw new ApiProblem(409, "duplicate_email", "Conflict", detail,
                        List.of(new FieldError("/email", "unique", detail)), Map.of());
            }
            if (SqlErrors.isForeignKeyViolation(e, "contacts_company")) {
                throw SqlErrors.unknownCompany();
            }
            throw e;
        }
    }
}
