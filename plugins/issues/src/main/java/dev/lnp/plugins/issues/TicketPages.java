package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.DetailView;
import dev.lnp.api.pages.DetailView.Field;
import dev.lnp.api.pages.Filter;
import dev.lnp.api.pages.Filter.Choice;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageOutcome;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.pages.PageView;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Support in the workspace application: the ticket inbox (the API's filters, "mine", sortable, paged, all in the
 * address), a ticket's page with its conversation, replying and internal notes, assignment, status and priority
 * changes, and the form for a new ticket. Every change goes through {@link IssueService} and {@link CommentService},
 * as the API and the MCP tools do, so the same checks, events and audit apply.
 */
final class TicketPages {

    static final String INBOX = "/app/support/tickets";
    /** The conversation a ticket's page shows, oldest first; the API pages through longer ones. */
    static final int CONVERSATION = 200;

    private final IssueService issues;
    private final CommentService comments;
    private final TicketListing listing;
    private final ObjectNode ticketForm;
    private final ObjectNode changeForm;
    private final ObjectNode replyForm;

    TicketPages(IssueService issues, CommentService comments, IssueSchemas schemas) {
        this.issues = issues;
        this.comments = comments;
        this.listing = new TicketListing(schemas.issueListQuery);
        this.ticketForm = TicketForms.newTicket(schemas.issueCreate);
        this.changeForm = TicketForms.change(schemas.issuePatch);
        this.replyForm = TicketForms.reply(schemas.commentCreate);
    }

    List<PageRoute> pages() {
        return List.of(
                PageRoute.view(INBOX).scope(IssueScopes.READ).nav("Support", "Tickets")
                        .liveOn("issues.ticket.*").renderer(this::inbox),
                PageRoute.view(INBOX + "/new").scope(IssueScopes.WRITE).renderer(call -> new FormView("New ticket",
                        ticketForm, Json.object(), "Create ticket", INBOX)
                        .withChoices("assignee_id", PeopleOnPages.assignees(call))),
                PageRoute.action(INBOX + "/new").scope(IssueScopes.WRITE).form(ticketForm)
                        .action((call, values) -> {
                            ObjectNode ticket = issues.create(call.tx(), call.userId(),
                                    values.deepCopy().put("kind", IssueKind.TICKET.key));
                            return PageOutcome.goTo(INBOX + "/" + ticket.get("id").asText(),
                                    "Ticket " + ticket.get("title").asText() + " created.")
                                    .recorded("issues.ticket_created", target(ticket), null);
                        }),
                PageRoute.view(INBOX + "/{id}").scope(IssueScopes.READ)
                        .liveOn("issues.ticket.updated", "issues.comment.created").renderer(this::ticket),
                PageRoute.view(INBOX + "/{id}/reply").scope(IssueScopes.WRITE).renderer(this::replyForm),
                PageRoute.action(INBOX + "/{id}/reply").scope(IssueScopes.WRITE).form(replyForm)
                        .action((call, values) -> {
                            ObjectNode ticket = find(call);
                            UUID id = call.pathId("id");
                            boolean internal = values.path("internal").asBoolean(false);
                            comments.addAsMember(call.tx(), call.userId(), id, values);
                            return PageOutcome.goTo(INBOX + "/" + id, internal ? "Internal note added."
                                            : "Reply added to the conversation.")
                                    .recorded(internal ? "issues.ticket_noted" : "issues.ticket_replied",
                                            target(ticket), null);
                        }),
                PageRoute.view(INBOX + "/{id}/edit").scope(IssueScopes.WRITE).renderer(this::changeForm),
                PageRoute.action(INBOX + "/{id}/edit").scope(IssueScopes.WRITE).form(changeForm)
                        .action((call, values) -> change(call, changes(find(call), values))),
                PageRoute.action(INBOX + "/{id}/assign-to-me").scope(IssueScopes.WRITE).button()
                        .action((call, values) -> change(call, Json.object()
                                .put("assignee_id", call.userId().toString()))),
                PageRoute.action(INBOX + "/{id}/unassign").scope(IssueScopes.WRITE).button()
                        .action((call, values) -> change(call, Json.object().putNull("assignee_id"))));
    }

    private PageView inbox(PageCall call) {
        var rows = issues.rows(call.tx(), listing.filter(call), call.page());
        List<ObjectNode> shown = rows.items().stream().map(ticket -> ticket.deepCopy()
                .put("status_label", IssueLabels.status(ticket.get("status").asText()))
                .put("priority_label", IssueLabels.priority(ticket.get("priority").asText()))
                .put("assignee", PeopleOnPages.name(call, ticket.get("assignee_id"), "Nobody"))).toList();
        ListView view = new ListView("Tickets", List.of(
                Column.of("Title", "title").linkedTo(INBOX + "/{id}").sortable("title"),
                Column.of("Status", "status_label"),
                Column.of("Priority", "priority_label").sortable("priority"),
                Column.of("Assignee", "assignee"),
                Column.of("Updated", "updated_at").sortable("updated_at"),
                Column.of("Created", "created_at").sortable("created_at")),
                List.of(Filter.search("search", "Search"),
                        Filter.anyOf("status", "Status", IssueLabels.statuses(IssueKind.TICKET.statuses)),
                        Filter.anyOf("priority", "Priority", IssueKind.PRIORITIES.stream()
                                .map(p -> new Choice(p, IssueLabels.priority(p))).toList()),
                        Filter.choice("unassigned", "Assignment", List.of(new Choice("true", "Unassigned"),
                                new Choice("false", "Assigned"))),
                        Filter.anyOf("mine", "Mine", List.of(new Choice("1", "Assigned to me")))),
                shown, rows.hasMore(), List.of(), "No tickets match. Clear the filters, or create one.");
        return call.may(IssueScopes.WRITE) ? view.actions(Link.to("New ticket", INBOX + "/new")) : view;
    }

    private PageView ticket(PageCall call) {
        ObjectNode ticket = find(call);
        UUID id = call.pathId("id");
        UUID me = call.userId();
        List<Field> fields = new ArrayList<>(List.of(
                new Field("Status", IssueLabels.status(ticket.get("status").asText())),
                new Field("Priority", IssueLabels.priority(ticket.get("priority").asText())),
                new Field("Assignee", PeopleOnPages.name(call, ticket.get("assignee_id"), "Nobody")),
                new Field("Description", text(ticket.get("description"))),
                new Field("Opened by", creator(call, ticket.get("created_by"))),
                new Field("Created", text(ticket.get("created_at"))),
                new Field("Updated", text(ticket.get("updated_at")))));
        var conversation = comments.list(call.tx(), id, new PageRequest(1, CONVERSATION));
        List<ObjectNode> messages = conversation.items().stream().map(comment -> comment.deepCopy()
                .put("from", author(call, comment))
                .put("visibility", comment.path("internal").asBoolean() ? "Internal note" : "Public")).toList();
        DetailView view = new DetailView(ticket.get("title").asText(), fields, List.of(
                ListView.of("Conversation", List.of(Column.of("From", "from"), Column.of("When", "created_at"),
                        Column.of("Visibility", "visibility"), Column.of("Message", "body")), messages, false)
                        .emptyText(conversation.page().total() > CONVERSATION
                                ? "The conversation is longer than this page shows; read it through the API."
                                : "No replies yet.")), List.of());
        if (!call.may(IssueScopes.WRITE)) {
            return view;
        }
        String here = INBOX + "/" + id;
        List<Link> actions = new ArrayList<>();
        if (!me.toString().equals(ticket.path("assignee_id").asText())) {
            actions.add(Link.post("Assign to me", here + "/assign-to-me", null));
        }
        if (ticket.hasNonNull("assignee_id")) {
            actions.add(Link.post("Unassign", here + "/unassign", null));
        }
        actions.add(Link.to("Change status, priority or assignee", here + "/edit"));
        // The reply is written under the conversation; its own page (/reply) stays for links made before.
        return view.actions(actions.toArray(Link[]::new)).withForm(here + "/reply", new FormView(
                "Reply or add an internal note", replyForm, Json.object(), "Send", null));
    }

    private PageView replyForm(PageCall call) {
        ObjectNode ticket = find(call);
        boolean internal = call.query("internal").isPresent();
        return new FormView((internal ? "Internal note on " : "Reply to ") + ticket.get("title").asText(), replyForm,
                internal ? Json.object().put("internal", true) : Json.object(), internal ? "Add note" : "Send reply",
                INBOX + "/" + call.pathId("id"));
    }

    private PageView changeForm(PageCall call) {
        ObjectNode ticket = find(call);
        ObjectNode values = Json.object();
        changeForm.path("properties").properties().forEach(p -> {
            JsonNode value = ticket.get(p.getKey());
            if (value != null && !value.isNull()) values.set(p.getKey(), value);
        });
        return new FormView("Change ticket: " + ticket.get("title").asText(), changeForm, values, "Save",
                INBOX + "/" + call.pathId("id")).withChoices("assignee_id", PeopleOnPages.assignees(call));
    }

    /** The API's update with what changed; a refusal is shown next to its field or above the form. */
    private PageOutcome change(PageCall call, ObjectNode changes) {
        UUID id = call.pathId("id");
        ObjectNode before = find(call);
        if (changes.isEmpty()) {
            return PageOutcome.goTo(INBOX + "/" + id, "Nothing was changed.");
        }
        ObjectNode after = issues.update(call.tx(), id, changes);
        List<String> said = new ArrayList<>();
        if (changes.has("status")) said.add("status " + IssueLabels.status(after.get("status").asText()));
        if (changes.has("priority")) said.add("priority " + IssueLabels.priority(after.get("priority").asText()));
        if (changes.has("assignee_id")) {
            said.add("assigned to " + PeopleOnPages.name(call, after.get("assignee_id"), "nobody")
                    .replace("You", "you"));
        }
        return PageOutcome.goTo(INBOX + "/" + id, "Ticket " + after.get("title").asText() + ": "
                        + String.join(", ", said) + ".")
                .recorded("issues.ticket_changed", target(before), String.join(", ", said));
    }

    /** The form's fields whose value differs from the ticket's: an unchanged field is not sent to the update. */
    private ObjectNode changes(ObjectNode ticket, ObjectNode values) {
        ObjectNode changes = Json.object();
        values.properties().forEach(e -> {
            JsonNode stored = ticket.path(e.getKey());
            boolean same = e.getValue().isNull() ? stored.isNull() || stored.isMissingNode()
                    : Objects.equals(e.getValue().asText(), stored.asText());
            if (!same) changes.set(e.getKey(), e.getValue());
        });
        return changes;
    }

    /** The ticket of the address; a task's id, or another workspace's, is not one (the not-found page). */
    private ObjectNode find(PageCall call) {
        UUID id = call.pathId("id");
        if (issues.ref(call.tx(), id).kind() != IssueKind.TICKET) {
            throw IssueService.notFound();
        }
        return issues.get(call.tx(), id);
    }

    /** A ticket is opened by a member in the application, or by a key or plugin acting for itself. */
    private static String creator(PageCall call, JsonNode createdBy) {
        if (createdBy == null || createdBy.isNull()) return null;
        return call.tx().isUser(UUID.fromString(createdBy.asText())) ? PeopleOnPages.name(call, createdBy, null)
                : "API connection";
    }

    private static String author(PageCall call, JsonNode comment) {
        return "connection".equals(comment.path("author_type").asText()) ? "API connection"
                : PeopleOnPages.name(call, comment.get("author_id"), null);
    }

    private static String target(ObjectNode ticket) {
        return ticket.get("title").asText() + " (" + ticket.get("id").asText() + ")";
    }

    private static String text(JsonNode value) {
        return value == null || value.isNull() || value.asText().isEmpty() ? null : value.asText();
    }
}
