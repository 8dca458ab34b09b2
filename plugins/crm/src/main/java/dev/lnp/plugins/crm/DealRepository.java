package dev.lnp.plugins.crm;

import static dev.lnp.api.sql.Column.date;
import static dev.lnp.api.sql.Column.json;
import static dev.lnp.api.sql.Column.number;
import static dev.lnp.api.sql.Column.textArray;
import static dev.lnp.api.sql.Column.text;
import static dev.lnp.api.sql.Column.uuid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.sql.JsonRows;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/** Deals of one workspace. */
final class DealRepository {

    static final EntityTable TABLE = new EntityTable("crm.deals", List.of(
            text("title"), number("value"), text("currency"), text("stage"), text("status"), uuid("contact_id"),
            uuid("company_id"), number("probability"), date("expected_close_date"), text("description"),
            uuid("assigned_to"), date("actual_close_date"), text("lost_reason"), text("source"), textArray("tags"),
            json("custom_fields"), text("external_id"), uuid("price_book_id"), uuid("package_id"), uuid("rep_id"),
            uuid("developer_id"), number("commission_pct"), text("territory")));

    private final Handle handle;
    private final UUID workspaceId;

    DealRepository(Handle handle, UUID workspaceId) {
        this.handle = handle;
        this.workspaceId = workspaceId;
    }

    ObjectNode insert(JsonNode fields) {
        return writing(() -> TABLE.insert(handle, workspaceId, fields).map(TABLE).one());
    }

    Optional<ObjectNode> find(UUID id) {
        return handle.createQuery("SELECT * FROM crm.deals WHERE workspace_id = :workspace_id AND id = :id")
                .bind("workspace_id", workspaceId).bind("id", id).map(TABLE).findOne();
    }

    boolean exists(UUID id) {
        return handle.createQuery("SELECT EXISTS (SELECT 1 FROM crm.deals WHERE workspace_id = :workspace_id AND id = :id)")
                .bind("workspace_id", workspaceId).bind("id", id).mapTo(Boolean.class).one();
    }

    /** The deal, locked until the transaction ends, so its state cannot change between check and update. */
    Optional<ObjectNode> findForUpdate(UUID id) {
        return handle.createQuery("SELECT * FROM crm.deals WHERE workspace_id = :workspace_id AND id = :id FOR UPDATE")
                .bind("workspace_id", workspaceId).bind("id", id).map(TABLE).findOne();
    }

    ObjectNode update(UUID id, JsonNode fields) {
        return writing(() -> TABLE.update(handle, workspaceId, id, fields).map(TABLE).one());
    }

    Optional<ObjectNode> delete(UUID id) {
        return handle.createQuery("DELETE FROM crm.deals WHERE workspace_id = :workspace_id AND id = :id RETURNING *")
                .bind("workspace_id", workspaceId).bind("id", id).map(TABLE).findOne();
    }

    /**
     * One page and its total in one statement (see {@link JsonRows#withTotal}); the rows are written straight from
     * the result set into the response or tool result, no node or list per row. Only a page with no row counts
     * again, on its own. As for contacts, the page's ids are chosen first and only its rows are read: the
     * pipeline's filter (one status, one stage, a value range) finds its ids, dates and values in
     * {@code deals_status_stage_page} alone, where sorting every matching row whole read each from the table
     * (docs/performance.md, "The design decisions that got there").
     */
    JsonRows list(DealFilter filter) {
        List<String> conditions = new ArrayList<>(List.of("workspace_id = :workspace_id"));
        anyOf(filter).forEach(values -> values.addTo(conditions));
        if (!filter.words().isEmpty()) {
            // The trigram index is reached through the search box's function (V12), as contacts' search does.
            conditions.add("id IN (SELECT crm.deal_search_candidates(:words))");
        }
        if (filter.contactId() != null) {
            conditions.add("contact_id = :contact_id");
        }
        if (filter.companyId() != null) {
            conditions.add("company_id = :company_id");
        }
        if (filter.valueMin() != null) {
            conditions.add("value >= :value_min");
        }
        if (filter.valueMax() != null) {
            conditions.add("value <= :value_max");
        }
        String where = String.join(" AND ", conditions);
        String count = "SELECT count(*) FROM crm.deals WHERE " + where;
        Query page = bind(handle.createQuery("""
                        WITH page AS (
                            SELECT id, created_at FROM crm.deals WHERE %s
                             ORDER BY created_at DESC, id DESC %s)
                        SELECT d.*, (%s) AS %s FROM page JOIN crm.deals d ON d.id = page.id AND d.workspace_id = :workspace_id
                         ORDER BY page.created_at DESC, page.id DESC
                        """.formatted(where, filter.page().limitClause(), count, JsonRows.TOTAL_COLUMN)), filter);
        return JsonRows.withTotal(page, TABLE::writer, filter.page(),
                () -> bind(handle.createQuery(count), filter).mapTo(Long.class).one());
    }

    private static List<OneOrAny<?>> anyOf(DealFilter filter) {
        return List.of(new OneOrAny<>("status", "statuses", String.class, filter.statuses()),
                new OneOrAny<>("stage", "stages", String.class, filter.stages()),
                new OneOrAny<>("assigned_to", "assignees", UUID.class, filter.assignees()));
    }

    private Query bind(Query statement, DealFilter filter) {
        statement.bind("workspace_id", workspaceId);
        anyOf(filter).forEach(values -> values.bind(statement));
        if (!filter.words().isEmpty()) {
            statement.bindArray("words", String.class, filter.words());
        }
        if (filter.contactId() != null) {
            statement.bind("contact_id", filter.contactId());
        }
        if (filter.companyId() != null) {
            statement.bind("company_id", filter.companyId());
        }
        if (filter.valueMin() != null) {
            statement.bind("value_min", filter.valueMin());
        }
        if (filter.valueMax() != null) {
            statement.bind("value_max", filter.valueMax());
        }
        return statement;
    }

    /**
     * The composite foreign keys (workspace_id, contact_id) and (workspace_id, company_id) are what refuse a contact
     * or company of another workspace or a missing one, race-free; each is answered as an invalid field.
     */
    private static ObjectNode writing(Supplier<ObjectNode> write) {
        try {
            return write.get();
        } catch (UnableToExecuteStatementException e) {
            if (SqlErrors.isForeignKeyViolation(e, "deals_contact")) {
                throw ApiProblem.invalidField("/contact_id", "exists",
                        "contact_id does not name a contact of this workspace");
            }
            if (SqlErrors.isForeignKeyViolation(e, "deals_company")) {
                throw SqlErrors.unknownCompany();
            }
            throw e;
        }
    }
}
