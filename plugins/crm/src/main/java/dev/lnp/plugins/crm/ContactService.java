package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Deleted;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.sql.JsonRows;
import java.util.UUID;

/**
 * What can be done to contacts, for REST handlers and MCP tools alike. Each change and its event are written
 * in the caller's transaction, so a change that fails leaves no event behind.
 */
final class ContactService {

    ObjectNode create(WorkspaceTx tx, JsonNode fields) {
        // The event is written by the insert itself (one round trip fewer); its payload is the same contact.
        return repository(tx).insert(fields, tx.events().inStatement(CrmEvents.CONTACT_CREATED));
    }

    ObjectNode get(WorkspaceTx tx, UUID id) {
        return repository(tx).find(id).orElseThrow(() -> ApiProblem.notFound("Contact"));
    }

    ObjectNode update(WorkspaceTx tx, UUID id, JsonNode fields) {
        ObjectNode contact = repository(tx).update(id, fields).orElseThrow(() -> ApiProblem.notFound("Contact"));
        tx.events().publish(CrmEvents.CONTACT_UPDATED, contact);
        return contact;
    }

    ObjectNode delete(WorkspaceTx tx, UUID id) {
        ObjectNode contact = repository(tx).delete(id).orElseThrow(() -> ApiProblem.notFound("Contact"));
        tx.events().publish(CrmEvents.CONTACT_DELETED, contact);
        return Deleted.of(id).toJson();
    }

    /** One page of contacts, written to the response or tool result straight from the result set. */
    JsonRows list(WorkspaceTx tx, ContactQuery query) {
        return repository(tx).list(query);
    }

    private static ContactRepository repository(WorkspaceTx tx) {
        return new ContactRepository(tx.handle(), tx.workspaceId());
    }
}
