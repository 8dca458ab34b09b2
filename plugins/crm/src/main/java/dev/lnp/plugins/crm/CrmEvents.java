package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.events.EventType;
import java.util.List;

/** The events the CRM emits. Each payload is the entity as the API returns it (its last state, for deletions). */
final class CrmEvents {

    static final String CONTACT_CREATED = "crm.contact.created";
    static final String CONTACT_UPDATED = "crm.contact.updated";
    static final String CONTACT_DELETED = "crm.contact.deleted";
    static final String DEAL_CREATED = "crm.deal.created";
    static final String DEAL_UPDATED = "crm.deal.updated";
    static final String DEAL_DELETED = "crm.deal.deleted";
    static final String COMPANY_CREATED = "crm.company.created";
    static final String COMPANY_UPDATED = "crm.company.updated";
    static final String COMPANY_DELETED = "crm.company.deleted";

    private CrmEvents() {
    }

    static List<EventType> types(CrmSchemas schemas) {
        return List.of(
                type(CONTACT_CREATED, "A contact was created", schemas.contact),
                type(CONTACT_UPDATED, "A contact was changed", schemas.contact),
                type(CONTACT_DELETED, "A contact was deleted; the payload is its last state", schemas.contact),
                type(DEAL_CREATED, "A deal was created", schemas.deal),
                type(DEAL_UPDATED, "A deal was changed", schemas.deal),
                type(DEAL_DELETED, "A deal was deleted; the payload is its last state", schemas.deal),
                type(COMPANY_CREATED, "A company was created", schemas.company),
                type(COMPANY_UPDATED, "A company was changed", schemas.company),
                type(COMPANY_DELETED, "A company was deleted; the payload is its last state. Its contacts and deals "
                        + "remain, without a company", schemas.company));
    }

    /** The alias is the short, contract-style name without the module prefix, e.g. {@code contact.created}. */
    private static EventType type(String name, String description, JsonNode payload) {
        return new EventType(name, description, payload, List.of(name.substring("crm.".length())));
    }
}
