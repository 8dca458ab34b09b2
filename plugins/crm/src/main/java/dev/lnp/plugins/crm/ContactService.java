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

    ObjectNode create(WorkspaceTx tx, Actor actor, JsonNode fields) {
        // The event and the activity entry are written by the insert itself (round trips fewer); the event's payload
        // is the same contact.
        return repository(tx).insert(fields, tx.events().inStatement(CrmEvents.CONTACT_CREATED), actor);
    }

    ObjectNode get(WorkspaceTx tx, UUID id) {
        return repository(tx).find(id).orElseThrow(() -> ApiProblem.notFound("Contact"));
    }

    ObjectNode update(WorkspaceTx tx, Actor actor, UUID id, JsonNode fields) {
        Change change = repository(tx).update(id, fields).orElseThrow(() -> ApiProblem.notFound("Contact"));
        new ActivityRepository(tx.handle(), tx.workspaceId())
                .record(actor, Activity.contactChanged(change.before(), change.after()));
        tx.events().publish(CrmEvents.CONTACT_UPDATED, change.after());
        return change.after();
    }

    ObjectNode delete(WorkspaceTx tx, UUID id) {
        ObjectNode contact = repository(tx).delete(id).orElseThrow(() -> ApiProblem.notFound("Contact"));
        new ActivityRepository(tx.handle(), tx.workspaceId()).forget("contact", id);
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
