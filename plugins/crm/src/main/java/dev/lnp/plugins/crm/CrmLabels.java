package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.JsonSchemas;
import dev.lnp.api.pages.EnumLabels;

/**
 * The words of the CRM's coded values (a deal's stage and status, a contact's status and type), as the create
 * schemas declare them beside each {@code enum}: every page reads them from there, so a label is written once.
 */
final class CrmLabels {

    static final JsonNode DEAL = JsonSchemas.load(CrmSchemas.class, "deal-create.json");
    static final JsonNode CONTACT = JsonSchemas.load(CrmSchemas.class, "contact-create.json");

    private CrmLabels() {
    }

    /** {@code closed_won} as "Closed won". */
    static String stage(String stage) {
        return EnumLabels.of(DEAL, "stage", stage);
    }

    /** A deal row with {@code stage_label} and {@code status_label} beside the values. */
    static ObjectNode deal(ObjectNode deal) {
        return EnumLabels.labelled(deal, DEAL);
    }

    /** A contact row with {@code status_label} and {@code contact_type_label} beside the values. */
    static ObjectNode contact(ObjectNode contact) {
        return EnumLabels.labelled(contact, CONTACT);
    }
}
