package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.mcp.EntityRef;
import dev.lnp.api.mcp.ToolAnnotations;
import dev.lnp.api.mcp.ToolCall;
import dev.lnp.api.mcp.ToolDescriptor;
import dev.lnp.api.mcp.ToolResult;
import java.util.List;
import java.util.UUID;

/** The contact tools of the MCP catalog; they run the same {@link ContactService} as the REST routes. */
final class ContactTools {

    private final ContactService contacts;
    private final CrmSchemas schemas;

    ContactTools(ContactService contacts, CrmSchemas schemas) {
        this.contacts = contacts;
        this.schemas = schemas;
    }

    List<ToolDescriptor> tools() {
        return List.of(
                new ToolDescriptor("crm_list_contacts", "List contacts",
                        "Lists the workspace's contacts, newest first, optionally only some statuses.",
                        CrmScopes.CONTACTS_READ, schemas.contactList, schemas.contactPage, ToolAnnotations.read(),
                        null, this::list),
                new ToolDescriptor("crm_search_contacts", "Search contacts",
                        "Finds contacts whose name, email, company name, job title or phone contain every word of "
                                + "the query, ignoring case and accents.",
                        CrmScopes.CONTACTS_READ, schemas.contactSearch, schemas.contactPage, ToolAnnotations.read(),
                        null, this::search),
                new ToolDescriptor("crm_create_contact", "Create a contact",
                        "Creates a contact. email is required and unique in the workspace.",
                        CrmScopes.CONTACTS_WRITE, schemas.contactCreate, schemas.contact, ToolAnnotations.create(),
                        CrmScopes.QUOTA, this::create),
                new ToolDescriptor("crm_update_contact", "Update a contact",
                        "Changes the given fields of the contact with this id; other fields stay as they are.",
                        CrmScopes.CONTACTS_WRITE, schemas.contactUpdate, schemas.contact, ToolAnnotations.update(),
                        CrmScopes.QUOTA, this::update),
                new ToolDescriptor("crm_delete_contact", "Delete a contact",
                        "Deletes the contact with this id for good. Deals that referenced it keep existing "
                                + "without a contact.",
                        CrmScopes.CONTACTS_WRITE, schemas.id, schemas.deleted, ToolAnnotations.delete(),
                        CrmScopes.QUOTA, this::delete));
    }

    private ToolResult list(ToolCall call) {
        var query = new ContactQuery(List.of(), call.strings("status"),
                call.pageRequest());
        return contacts.list(call.tx(), query).asToolResult("contact");
    }

    private ToolResult search(ToolCall call) {
        var query = new ContactQuery(SearchWords.of(call.arguments().get("query").asText(), "/query"),
                call.strings("status"), call.pageRequest());
        return contacts.list(call.tx(), query).asToolResult("contact");
    }

    private ToolResult create(ToolCall call) {
        return written(contacts.create(call.tx(), call.arguments()), "created");
    }

    private ToolResult update(ToolCall call) {
        return written(contacts.update(call.tx(), call.id(), call.argumentsWithoutId()), "updated");
    }

    private ToolResult delete(ToolCall call) {
        UUID id = call.id();
        return ToolResult.of(contacts.delete(call.tx(), id), new EntityRef("contact", id, "deleted"));
    }

    private static ToolResult written(ObjectNode contact, String action) {
        return ToolResult.of(contact, new EntityRef("contact", UUID.fromString(contact.get("id").asText()), action));
    }
}
