package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.http.PageRequest;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/** Deals as the application shows them: the pipeline board by stage, a filtered list, a contact's deals. */
final class DealListing {

    static final List<String> STAGES = List.of("discovery", "qualified", "proposal", "negotiation", "closed_won",
            "closed_lost");
    /** Cards a lane shows; the lane's heading gives the whole count and value, its list link the rest. */
    static final int CARDS_PER_LANE = 50;

    /** A lane's figures: how many deals are in the stage and what they are worth together. */
    record LaneTotal(String stage, long count, BigDecimal value) {
    }


    private final Handle handle;
    private final UUID workspaceId;

    DealListing(Handle handle, UUID workspaceId) {
        this.handle = handle;
        this.workspaceId = workspaceId;
    }

    /**
     * The most recently changed deals of each stage, at most {@link #CARDS_PER_LANE} each, one statement: a lateral
     * read per stage off {@code deals_stage_recent} (V10).
     */
    List<ObjectNode> board() {
        return handle.createQuery("""
                        SELECT d.* FROM unnest(:stages) AS s(stage)
                        CROSS JOIN LATERAL (
                            SELECT * FROM crm.deals
                             WHERE workspace_id = :workspace_id AND stage = s.stage
                             ORDER BY updated_at DESC, id DESC
                             LIMIT %d) d
                        """.formatted(CARDS_PER_LANE))
                .bind("workspace_id", workspaceId).bindArray("stages", String.class, STAGES)
                .map(DealRepository.TABLE).list();
    }

    List<LaneTotal> laneTotals() {
        return handle.createQuery("""
                        SELECT stage, count(*) AS n, coalesce(sum(value), 0) AS total FROM crm.deals
                         WHERE workspace_id = :workspace_id GROUP BY stage
                        """)
                .bind("workspace_id", workspaceId)
                .map((rs, ctx) -> new LaneTotal(rs.getString("stage"), rs.getLong("n"), rs.getBigDecimal("total")))
                .list();
    }

    /**
     * Deals newest first, whose title holds every word (escaped for LIKE), of the given stages and statuses (empty:
     * all) and, when not null, of one contact.
     */
    RowsPage page(List<String> words, List<String> stages, List<String> statuses, UUID contactId, UUID companyId,
            PageRequest page) {
        List<String> conditions = new ArrayList<>(List.of("workspace_id = :workspace_id"));
        if (!words.isEmpty()) conditions.add("id IN (SELECT crm.deal_search_candidates(:words))");
        if (!stages.isEmpty()) conditions.add("stage = ANY(:stages)");
        if (!statuses.isEmpty()) conditions.add("status = ANY(:statuses)");
        if (contactId != null) conditions.add("contact_id = :contact_id");
        if (companyId != null) conditions.add("company_id = :company_id");
        Query query = handle.createQuery("SELECT * FROM crm.deals WHERE " + String.join(" AND ", conditions)
                        + " ORDER BY created_at DESC, id DESC LIMIT " + (page.limit() + 1) + " OFFSET " + page.offset())
                .bind("workspace_id", workspaceId);
        if (!words.isEmpty()) query.bindArray("words", String.class, words);
        if (!stages.isEmpty()) query.bindArray("stages", String.class, stages);
        if (!statuses.isEmpty()) query.bindArray("statuses", String.class, statuses);
        if (contactId != null) query.bind("contact_id", contactId);
        if (companyId != null) query.bind("company_id", companyId);
        return RowsPage.of(query.map(DealRepository.TABLE).list(), page.limit());
    }

    /** A company's open pipeline in one currency: the summed value of its open and on-hold deals that have one. */
    record Pipeline(String currency, BigDecimal value, long deals) {
    }

    /**
     * A company's deals: those that name it, and those that name no company but one of its contacts (a deal that names
     * another company is that company's, whoever its contact is).
     */
    private static final String OF_COMPANY = "workspace_id = :workspace_id AND (company_id = :company_id"
            + " OR (company_id IS NULL AND contact_id IN (SELECT id FROM crm.contacts"
            + " WHERE workspace_id = :workspace_id AND company_id = :company_id)))";

    /** The company's deals ({@link #OF_COMPANY}), newest first. */
    RowsPage ofCompany(UUID companyId, PageRequest page) {
        return RowsPage.of(handle.createQuery("SELECT * FROM crm.deals WHERE " + OF_COMPANY
                        + " ORDER BY created_at DESC, id DESC LIMIT " + (page.limit() + 1) + " OFFSET " + page.offset())
                .bind("workspace_id", workspaceId).bind("company_id", companyId)
                .map(DealRepository.TABLE).list(), page.limit());
    }

    /** The company's deals still in play (open or on hold), summed per currency; deals without a currency last. */
    List<Pipeline> pipelineOf(UUID companyId) {
        return handle.createQuery("SELECT currency, coalesce(sum(value), 0) AS total, count(*) AS n FROM crm.deals"
                        + " WHERE " + OF_COMPANY + " AND status IN ('open', 'on_hold')"
                        + " GROUP BY currency ORDER BY currency NULLS LAST")
                .bind("workspace_id", workspaceId).bind("company_id", companyId)
                .map((rs, ctx) -> new Pipeline(rs.getString("currency"), rs.getBigDecimal("total"), rs.getLong("n")))
                .list();
    }

    /** The deals whose title holds every word (already escaped for LIKE), most recently changed first. */
    RowsPage matching(List<String> words, PageRequest page) {
        Query query = handle.createQuery("SELECT * FROM crm.deals WHERE workspace_id = :workspace_id"
                        + " AND id IN (SELECT crm.deal_search_candidates(:words))"
                        + " ORDER BY updated_at DESC, id DESC LIMIT " + (page.limit() + 1) + " OFFSET " + page.offset())
                .bind("workspace_id", workspaceId)
                .bindArray("words", String.class, words);
        return RowsPage.of(query.map(DealRepository.TABLE).list(), page.limit());
    }
}
