package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The support pages' forms, cut from the API's own schemas (the fields a person fills in, with titles to label
 * them), so a page accepts what the API accepts: the status choice is the ticket's statuses, the rest unchanged.
 */
final class TicketForms {

    private TicketForms() {
    }

    /** A new ticket: the create fields people fill in; the kind is always ticket. */
    static ObjectNode newTicket(JsonNode create) {
        ObjectNode form = cut(create, "New ticket", List.of("title", "description", "status", "priority",
                "assignee_id"));
        ticketStatuses(form);
        form.withObject("properties").withObject("status").put("default", IssueKind.TICKET.defaultStatus);
        titled(form, "assignee_id", "Assignee", "the member who answers it");
        form.putArray("required").add("title");
        return form;
    }

    /** Status, priority and assignee of an existing ticket: the API's update fields of the same names. */
    static ObjectNode change(JsonNode patch) {
        ObjectNode form = cut(patch, "Change ticket", List.of("status", "priority", "assignee_id"));
        ticketStatuses(form);
        titled(form, "assignee_id", "Assignee", "the member who answers it");
        form.remove("required");
        return form;
    }

    /** A reply or an internal note: the API's comment body as it is. */
    static ObjectNode reply(JsonNode commentCreate) {
        ObjectNode form = commentCreate.deepCopy();
        titled(form, "body", "Message", "the customer reads it, unless it is an internal note");
        titled(form, "internal", "Internal note", "members only: never sent to the customer or chat visitor");
        return form;
    }

    /** A comment on a task: its text only (internal notes are for tickets' customers), labelled for people. */
    static ObjectNode taskComment(JsonNode commentCreate) {
        ObjectNode form = cut(commentCreate, "Comment", List.of("body"));
        titled(form, "body", "Comment", "the workspace's members read it with the task");
        return form;
    }

    private static ObjectNode cut(JsonNode schema, String title, List<String> fields) {
        ObjectNode form = schema.deepCopy();
        form.put("title", title);
        ObjectNode properties = form.putObject("properties");
        for (String name : fields) {
            properties.set(name, schema.path("properties").get(name).deepCopy());
        }
        form.remove("x-unknown-field-hints");
        return form;
    }

    private static void ticketStatuses(ObjectNode form) {
        ObjectNode status = form.withObject("properties").withObject("status");
        ArrayNode statuses = status.putArray("enum");
        IssueKind.TICKET.statuses.forEach(statuses::add);
        status.remove("description");
    }

    private static void titled(ObjectNode form, String field, String title, String help) {
        ObjectNode property = form.withObject("properties").withObject(field);
        property.put("title", title);
        if (help != null) property.put("description", help);
    }
}
