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
                ToolDescriptor.builder("crm_list_contacts")
                        .title("List contacts")
                        .description("Lists the workspace's contacts, newest first, optionally only some statuses.")
                        .scope(CrmScopes.CONTACTS_READ)
                        .inputSchema(schemas.contactList)
                        .outputSchema(schemas.contactPage)
                        .annotations(ToolAnnotations.read())
                        .handler(this::list),
                ToolDescriptor.builder("crm_search_contacts")
                        .title("Search contacts")
                        .description("Finds contacts whose name, email, company name, job title or phone contain every word of "
                                + "the query, ignoring case and accents.")
                        .scope(CrmScopes.CONTACTS_READ)
                        .inputSchema(schemas.contactSearch)
                        .outputSchema(schemas.contactPage)
                        .annotations(ToolAnnotations.read())
                        .handler(this::search),
                ToolDescriptor.builder("crm_get_contact")
                        .title("Get a contact")
                        .description("Reads one contact by id.")
                        .scope(CrmScopes.CONTACTS_READ)
                        .inputSchema(schemas.id)
                        .outputSchema(schemas.contact)
                        .annotations(ToolAnnotations.read())
                        .handler(this::get),
                ToolDescriptor.builder("crm_create_contact")
                        .title("Create a contact")
                        .description("Creates a contact. email is required and unique in the workspace.")
                        .scope(CrmScopes.CONTACTS_WRITE)
                        .inputSchema(schemas.contactCreate)
                        .outputSchema(schemas.contact)
                        .annotations(ToolAnnotations.create())
                        .quota(CrmScopes.QUOTA)
                        .handler(this::create),
                ToolDescriptor.builder("crm_update_contact")
                        .title("Update a contact")
                        .description("Changes the given fields of the contact with this id; other fields stay as they are.")
                        .scope(CrmScopes.CONTACTS_WRITE)
                        .inputSchema(schemas.contactUpdate)
                        .outputSchema(schemas.contact)
                        .annotations(ToolAnnotations.update())
                        .quota(CrmScopes.QUOTA)
                        .handler(this::update),
                ToolDescriptor.builder("crm_delete_contact")
                        .title("Delete a contact")
                        .description("Deletes the contact with this id for good. Deals that referenced it keep existing "
                                + "without a contact.")
                        .scope(CrmScopes.CONTACTS_WRITE)
                        .inputSchema(schemas.id)
                        .outputSchema(schemas.deleted)
                        .annotations(ToolAnnotations.delete())
                        .quota(CrmScopes.QUOTA)
                        .handler(this::delete));
    }

    private ToolResult list(ToolCall call) {
        var query = new ContactQuery(List.of(), call.strings("status"),
                call.pageRequest());
        return contacts.list(call.tx(), query).toolResult("contact");
    }

    private ToolResult search(ToolCall call) {
        var query = new ContactQuery(SearchWords.of(call.arguments().get("query").asText(), "/query"),
                call.strings("status"), call.pageRequest());
        return contacts.list(call.tx(), query).toolResult("contact");
    }

    private ToolResult get(ToolCall call) {
        return result(contacts.get(call.tx(), call.id()), "read");
    }

    private ToolResult create(ToolCall call) {
        return result(contacts.create(call.tx(), Actor.of(call.principal()), call.arguments()), "created");
    }

    private ToolResult update(ToolCall call) {
        return result(contacts.update(call.tx(), Actor.of(call.principal()), call.id(), call.argumentsWithoutId()), "updated");
    }

    private ToolResult delete(ToolCall call) {
        UUID id = call.id();
        return ToolResult.of(contacts.delete(call.tx(), id), new EntityRef("contact", id, "deleted"));
    }

    private static ToolResult result(ObjectNode contact, String action) {
        return ToolResult.of(contact, new EntityRef("contact", UUID.fromString(contact.get("id").asText()), action));
    }
}
