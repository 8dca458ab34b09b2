package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.http.PageRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/**
 * The contacts list of the application: the API's filters plus type and tag, in the order a person asks for.
 * It reads one row more than the page to know whether another page follows, and never counts: people page
 * forwards, they do not need "page 3 of 2,000". Each order has an index that delivers it (V9).
 */
final class ContactListing {

    /** The orders a person can ask for, by the {@code sort} value of the page's address. */
    enum Order {
        NEWEST("-created", "created_at DESC, id DESC"),
        OLDEST("created", "created_at, id"),
        UPDATED("-updated", "updated_at DESC, id DESC"),
        NAME("name", "lower(last_name), lower(first_name), id"),
        NAME_DESC("-name", "lower(last_name) DESC, lower(first_name) DESC, id DESC");

        final String key;
        final String sql;

        Order(String key, String sql) {
            this.key = key;
            this.sql = sql;
        }

        /** The order named {@code key}; anything else is the default, newest first. */
        static Order of(String key) {
            for (Order order : values()) {
                if (order.key.equals(key)) return order;
            }
            return NEWEST;
        }
    }

    /** @param words search words already escaped for LIKE; {@code tag} is matched exactly, or {@code null} */
    record Filters(List<String> words, List<String> statuses, List<String> types, String tag, UUID companyId) {
        Filters {
            words = List.copyOf(words);
            statuses = List.copyOf(statuses);
            types = List.copyOf(types);
        }
    }


    private final Handle handle;
    private final UUID workspaceId;

    ContactListing(Handle handle, UUID workspaceId) {
        this.handle = handle;
        this.workspaceId = workspaceId;
    }

    RowsPage page(Filters filters, Order order, PageRequest page) {
        List<String> conditions = new ArrayList<>(List.of("workspace_id = :workspace_id"));
        if (!filters.statuses().isEmpty()) conditions.add("status = ANY(:statuses)");
        if (!filters.types().isEmpty()) conditions.add("contact_type = ANY(:types)");
        if (filters.tag() != null) conditions.add("tags @> ARRAY[CAST(:tag AS text)]");
        if (filters.companyId() != null) conditions.add("company_id = :company_id");
        if (!filters.words().isEmpty()) conditions.add("id IN (SELECT crm.contact_search_candidates(:words))");
        Query query = handle.createQuery("SELECT * FROM crm.contacts WHERE " + String.join(" AND ", conditions)
                        + " ORDER BY " + order.sql + " LIMIT " + (page.limit() + 1) + " OFFSET " + page.offset())
                .bind("workspace_id", workspaceId);
        if (!filters.statuses().isEmpty()) query.bindArray("statuses", String.class, filters.statuses());
        if (!filters.types().isEmpty()) query.bindArray("types", String.class, filters.types());
        if (filters.tag() != null) query.bind("tag", filters.tag());
        if (filters.companyId() != null) query.bind("company_id", filters.companyId());
        if (!filters.words().isEmpty()) query.bindArray("words", String.class, filters.words());
        return RowsPage.of(query.map(ContactRepository.TABLE).list(), page.limit());
    }

    /** The contact, or empty when it is not one of this workspace's. */
    java.util.Optional<ObjectNode> find(UUID id) {
        return handle.createQuery("SELECT * FROM crm.contacts WHERE workspace_id = :workspace_id AND id = :id")
                .bind("workspace_id", workspaceId).bind("id", id).map(ContactRepository.TABLE).findOne();
    }
}
