package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.PageRequest;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.SqlStatement;

/**
 * The CRM's activity entries (V13): written in the transaction of the change they tell of, read newest first per
 * contact, company or deal.
 */
final class ActivityRepository {

    /** One thing that happened; see {@link Activity} for which changes make which entries. */
    record Entry(String what, UUID contactId, UUID companyId, UUID dealId, String subject, List<String> fields,
                 String from, String to) {
        Entry {
            fields = List.copyOf(fields);
        }
    }

    /**
     * The entry of a new contact, as one more step of the statement that inserts it ({@code inserted}); bind its
     * parameters with {@link #bindActor}.
     */
    static final String CONTACT_CREATED_STEP = """
            INSERT INTO crm.activity (workspace_id, what, contact_id, company_id, actor_type, actor_id, connection_id)
            SELECT workspace_id, 'contact.created', id, company_id, :actor_type, CAST(:actor_id AS uuid),
                   CAST(:actor_connection AS uuid)
              FROM inserted""";

    /** An entry with the names of its contact and company as they are now (null once deleted). */
    private static final String SELECT = """
            SELECT a.id, a.at, a.what, a.contact_id, a.company_id, a.deal_id, a.subject, a.fields, a.from_value,
                   a.to_value, a.actor_type, a.actor_id, a.connection_id,
                   nullif(trim(concat_ws(' ', c.first_name, c.last_name)), '') AS contact_name, c.email AS contact_email,
                   co.name AS company_name
              FROM crm.activity a
              LEFT JOIN crm.contacts c ON c.workspace_id = a.workspace_id AND c.id = a.contact_id
              LEFT JOIN crm.companies co ON co.workspace_id = a.workspace_id AND co.id = a.company_id
             WHERE a.workspace_id = :workspace_id""";

    private final Handle handle;
    private final UUID workspaceId;

    ActivityRepository(Handle handle, UUID workspaceId) {
        this.handle = handle;
        this.workspaceId = workspaceId;
    }

    static <S extends SqlStatement<S>> S bindActor(S statement, Actor actor) {
        return statement.bind("actor_type", actor.type()).bind("actor_id", actor.id())
                .bind("actor_connection", actor.connectionId());
    }

    void record(Actor actor, List<Entry> entries) {
        for (Entry entry : entries) {
            bindActor(handle.createUpdate("""
                            INSERT INTO crm.activity (workspace_id, what, contact_id, company_id, deal_id, subject, fields,
                                                      from_value, to_value, actor_type, actor_id, connection_id)
                            VALUES (:workspace_id, :what, CAST(:contact_id AS uuid), CAST(:company_id AS uuid),
                                    CAST(:deal_id AS uuid), :subject, :fields, :from_value, :to_value, :actor_type,
                                    CAST(:actor_id AS uuid), CAST(:actor_connection AS uuid))
                            """), actor)
                    .bind("workspace_id", workspaceId).bind("what", entry.what())
                    .bind("contact_id", entry.contactId()).bind("company_id", entry.companyId())
                    .bind("deal_id", entry.dealId()).bind("subject", entry.subject())
                    .bindArray("fields", String.class, entry.fields())
                    .bind("from_value", entry.from()).bind("to_value", entry.to())
                    .execute();
        }
    }

    /**
     * Removes a deleted contact's or company's own entries (created, changed), which no page can show any more; the
     * entries of its deals stay for the deals' own timelines.
     */
    void forget(String kind, UUID id) {
        if (!kind.equals("contact") && !kind.equals("company")) throw new IllegalArgumentException(kind);
        handle.createUpdate("DELETE FROM crm.activity WHERE workspace_id = :workspace_id AND " + kind + "_id = :id"
                        + " AND what IN ('" + kind + ".created', '" + kind + ".changed')")
                .bind("workspace_id", workspaceId).bind("id", id).execute();
    }

    /**
     * What happened to the contact and to the deals while they were the contact's ({@code withDeals}: for people who
     * may read deals).
     */
    RowsPage ofContact(UUID contactId, boolean withDeals, PageRequest page) {
        return page("a.contact_id = :id" + (withDeals ? "" : " AND a.deal_id IS NULL"), contactId, page);
    }

    /**
     * What happened to the company, to its contacts (those it has today) and to the deals while they were its own
     * or its contacts'; each part only for people who may read that kind of record.
     */
    RowsPage ofCompany(UUID companyId, boolean withContacts, boolean withDeals, PageRequest page) {
        String ofCompany = "a.company_id = :id AND a.contact_id IS NULL AND a.deal_id IS NULL";
        String ofContacts = "a.contact_id IN (SELECT id FROM crm.contacts WHERE workspace_id = :workspace_id"
                + " AND company_id = :id) AND a.deal_id IS NULL";
        String ofDeals = "a.deal_id IS NOT NULL AND (a.company_id = :id OR a.contact_id IN (SELECT id FROM crm.contacts"
                + " WHERE workspace_id = :workspace_id AND company_id = :id))";
        List<String> parts = new java.util.ArrayList<>(List.of(ofCompany));
        if (withContacts) parts.add(ofContacts);
        if (withDeals) parts.add(ofDeals);
        return page("((" + String.join(") OR (", parts) + "))", companyId, page);
    }

    RowsPage ofDeal(UUID dealId, PageRequest page) {
        return page("a.deal_id = :id", dealId, page);
    }

    private RowsPage page(String condition, UUID id, PageRequest page) {
        List<ObjectNode> rows = handle.createQuery(SELECT + " AND " + condition + " ORDER BY a.id DESC LIMIT "
                        + (page.limit() + 1) + " OFFSET " + page.offset())
                .bind("workspace_id", workspaceId).bind("id", id)
                .map((rs, ctx) -> row(rs)).list();
        return RowsPage.of(rows, page.limit());
    }

    private static ObjectNode row(ResultSet rs) throws SQLException {
        ObjectNode row = Json.object();
        row.put("id", rs.getLong("id"));
        row.put("at", rs.getObject("at", java.time.OffsetDateTime.class).withOffsetSameInstant(ZoneOffset.UTC)
                .toInstant().toString());
        row.put("what", rs.getString("what"));
        text(row, "contact_id", rs.getString("contact_id"));
        text(row, "company_id", rs.getString("company_id"));
        text(row, "deal_id", rs.getString("deal_id"));
        text(row, "subject", rs.getString("subject"));
        var fields = row.putArray("fields");
        Arrays.stream((String[]) rs.getArray("fields").getArray()).forEach(fields::add);
        text(row, "from", rs.getString("from_value"));
        text(row, "to", rs.getString("to_value"));
        row.put("actor_type", rs.getString("actor_type"));
        text(row, "actor_id", rs.getString("actor_id"));
        text(row, "connection_id", rs.getString("connection_id"));
        String contactName = rs.getString("contact_name");
        text(row, "contact_name", contactName != null ? contactName : rs.getString("contact_email"));
        text(row, "company_name", rs.getString("company_name"));
        return row;
    }

    private static void text(ObjectNode row, String field, String value) {
        if (value == null) row.putNull(field);
        else row.put(field, value);
    }
}
